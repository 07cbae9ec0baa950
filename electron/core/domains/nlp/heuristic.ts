/**
 * The fallback when the ONNX models cannot load (missing file, unsupported platform): keyword
 * rules for intent and gazetteer + shape rules for entities. Good enough to keep analyze_message
 * and the inbox useful; the eval prints it as the intent baseline.
 */
import { INTENTS, type EntitySpan, type EntityType, type Intent, type IntentResult, type Nlp } from './contract';
import { detectPhrases } from './phrases';
import { tokenize } from './tokenize';
import * as gz from './gazetteer';
import { assertSize } from './limits';
import { present } from '../../kernel/errors';

const RULES: Array<[Intent, RegExp]> = [
  ['GREETING', /^\W*(hi+|hey+|hello|yo|good (morning|afternoon|evening|night)|thanks?|thank you|thx|ty|cheers|bye|see you|gm|sup)\b[^?]{0,25}$/i],
  ['UPDATE_INFO', /\b(actually|correction|update:|changed?|not .{1,30} anymore|no longer|instead|moved to|switched|now it'?s|renamed)\b/i],
  ['RECALL_INFO', /\b(what did (i|we)|do you remember|remind me|did i (tell|mention)|what('?s| is| was) my|recall|my notes)\b/i],
  ['SAVE_DECISION', /\b(decided|decision|going with|we'?ll (use|go)|chose|settled on|let'?s go with|agreed|from now on|going forward)\b/i],
  ['SAVE_PREFERENCE', /\b(i (really )?(prefer|like|love|hate|enjoy|dislike|can'?t stand)|my favou?rite|i'?d rather|not a fan)\b/i],
  ['QUESTION', /\?\s*$|^(how|what|why|when|where|which|who|can|could|is|are|do|does|should|write|explain|help)\b/i],
  ['SAVE_FACT', /\b(my|our|the) \w+ (is|are|was|runs|lives)\b|\bi (have|live|work|am|'m)\b/i],
];

export function heuristicIntent(text: string): IntentResult {
  const phrases = detectPhrases(text);
  let intent: Intent = 'QUESTION';
  for (const [label, re] of RULES) {
    if (re.test(text.trim())) {
      intent = label;
      break;
    }
  }
  if (phrases.recallRequest) intent = 'RECALL_INFO';
  const confidence = 0.55;
  const rest = (1 - confidence) / (INTENTS.length - 1);
  const probs = Object.fromEntries(INTENTS.map((k) => [k, k === intent ? confidence : Math.round(rest * 10000) / 10000])) as Record<Intent, number>;
  const high = /\b(urgent|asap|immediately|right now|emergency|blocking|prod(uction)? is down|eod)\b|!!/i.test(text);
  const low = /\b(no rush|whenever|low priority|not urgent|no hurry|someday|when you have time)\b/i.test(text);
  const label = high ? 'high' : low ? 'low' : 'normal';
  return {
    intent,
    confidence,
    probs,
    explicitSave: phrases.saveRequest ? 1 : 0,
    urgency: { label, probs: { low: label === 'low' ? 1 : 0, normal: label === 'normal' ? 1 : 0, high: label === 'high' ? 1 : 0 } },
  };
}

/** Gazetteer hits, capitalised runs, and date/time shapes. */
export function heuristicEntities(text: string): EntitySpan[] {
  const toks = tokenize(text);
  const out: EntitySpan[] = [];
  const push = (from: number, to: number, type: EntityType, score: number) => {
    const start = present(toks[from], 'the first token of a match').start;
    const end = present(toks[to], 'the last token of a match').end;
    out.push({ text: text.slice(start, end), type, start, end, score });
  };
  for (let i = 0; i < toks.length; i++) {
    const w = present(toks[i], 'the current token').text;
    const lw = w.toLowerCase();
    const phrase = gz.PHRASES.find((p) => p.tokens.every((t, k) => toks[i + k]?.text.toLowerCase() === t));
    if (phrase) {
      push(i, i + phrase.tokens.length - 1, phrase.type, 0.6);
      i += phrase.tokens.length - 1;
    } else if (/^\d{1,2}(:\d{2})?$/.test(w) && /^(am|pm|a\.m\.|p\.m\.)$/i.test(toks[i + 1]?.text ?? '')) {
      push(i, i + 1, 'TIME', 0.6);
      i++;
    } else if (/^\d{1,2}:\d{2}$/.test(w) || /^(noon|midnight|tonight)$/i.test(w)) push(i, i, 'TIME', 0.6);
    else if (/^(today|tomorrow|yesterday)$/i.test(w) || /^\d{4}-\d{2}-\d{2}$/.test(w)) push(i, i, 'DATE', 0.6);
    else if (/^(next|last|this)$/i.test(w) && toks[i + 1] && (gz.WEEKDAYS.has(toks[i + 1]?.text.toLowerCase() ?? '') || /^(week|month|year|quarter)$/i.test(toks[i + 1]?.text ?? ''))) {
      push(i, i + 1, 'DATE', 0.6);
      i++;
    } else if (gz.MONTHS.has(lw) && /^[A-Z]/.test(w)) {
      const j = /^\d{1,2}(st|nd|rd|th)?$/.test(toks[i + 1]?.text ?? '') ? i + 1 : i;
      push(i, j, 'DATE', 0.5);
      i = j;
    } else if (gz.WEEKDAYS.has(lw) && /^[A-Z]/.test(w)) push(i, i, 'DATE', 0.5);
    else if (/^Q[1-4]$/.test(w)) {
      const j = /^\d{4}$/.test(toks[i + 1]?.text ?? '') ? i + 1 : i;
      push(i, j, 'DATE', 0.6);
      i = j;
    } else if (gz.PRODUCTS.has(lw)) push(i, i, 'PRODUCT', 0.5);
    else if (gz.GPES.has(lw) && /^\p{Lu}/u.test(w)) push(i, i, 'GPE', 0.5);
    else if (gz.ORGS.has(lw) && /^\p{Lu}/u.test(w)) push(i, i, 'ORG', 0.5);
    else if (/^\p{Lu}\p{Ll}+/u.test(w) && i > 0 && !/^[.!?]$/.test(toks[i - 1]?.text ?? '')) {
      let j = i;
      for (let nx = toks[j + 1]; nx && /^\p{Lu}/u.test(nx.text); nx = toks[j + 1]) j++;
      const last = present(toks[j], 'the last capitalised token').text.toLowerCase();
      push(i, j, gz.ORG_SUFFIXES.has(last) ? 'ORG' : 'PERSON', 0.3);
      i = j;
    }
  }
  return out;
}

export const heuristicNlp: Nlp = {
  backend: 'heuristic',
  async entities(text) {
    assertSize(text);
    return heuristicEntities(text);
  },
  async intent(text) {
    assertSize(text);
    return heuristicIntent(text);
  },
};
