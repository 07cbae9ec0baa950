/**
 * Builds the intent training corpus from models/corpora/intent (templates, slot fillers,
 * augmentation lists) with a seeded generator, then appends the handwritten training lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { INTENTS, type Intent } from '../../electron/core/domains/nlp/contract';
import type { Rng } from './prng';
import { expand, joinSegments, readSections } from './template';
import { loadLexicon } from './lexicon';
import { chatShorthand, composeSaveWrapper, dictate, emailFrame } from './save-grammar';

export type Urgency = 'low' | 'normal' | 'high';
export interface IntentExample {
  text: string;
  intent: Intent;
  explicitSave: boolean;
  urgency: Urgency;
  /** Hard negatives and other tags used by eval breakdowns. */
  tags: string[];
}

interface Template {
  intent: Intent;
  text: string;
  save: boolean;
  urgency: Urgency;
}

function readTemplates(dir: string): Template[] {
  const out: Template[] = [];
  let intent: Intent | undefined;
  for (const raw of fs.readFileSync(path.join(dir, 'templates.txt'), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('# ')) continue;
    const h = /^## (\w+)$/.exec(line);
    if (h) {
      if (!(INTENTS as readonly string[]).includes(h[1])) throw new Error(`unknown intent ${h[1]} in templates.txt`);
      intent = h[1] as Intent;
      continue;
    }
    if (!intent) continue;
    let text = line;
    let save = false;
    let urgency: Urgency = 'normal';
    for (;;) {
      const f = /^!(save|high|low)\s+/.exec(text);
      if (!f) break;
      if (f[1] === 'save') save = true;
      else urgency = f[1] as Urgency;
      text = text.slice(f[0].length);
    }
    out.push({ intent, text, save, urgency });
  }
  return out;
}

const lowerFirst = (s: string) => (/^I\b/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const SAVE_WORD_RE = /\b(?:remember|bookmark|note|notes|save|forget|record|memory|memorise|store|file|jot|keep)\b/i;

/** One typo in a word of 4+ letters: swap, drop or double a letter (other words unchanged). */
export function typo(word: string, rng: Rng): string {
  if (word.length < 4 || !/^\p{L}+$/u.test(word)) return word;
  const i = 1 + rng.int(word.length - 2);
  switch (rng.int(3)) {
    case 0:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    default:
      return word.slice(0, i) + word[i] + word.slice(i);
  }
}

function wrap(wrapper: string, x: string): string {
  return wrapper.replace('{X}', upperFirst(x)).replace('{x}', lowerFirst(x));
}

/** Share of a class's generated messages composed from frames (v6) rather than its templates. */
export const COMPOSED_SHARE = { UPDATE_INFO: 0.4, SAVE_DECISION: 0.35 } as const;

export function generateIntentCorpus(corporaDir: string, rng: Rng, perIntent: number): IntentExample[] {
  const dir = path.join(corporaDir, 'intent');
  const templates = readTemplates(dir);
  const slots = readSections(fs.readFileSync(path.join(dir, 'slots.txt'), 'utf8'));
  const aug = readSections(fs.readFileSync(path.join(dir, 'augment.txt'), 'utf8'));
  // Slot words from a far larger vocabulary than slots.txt (faker's name, town, food and noun
  // lists), 40% of the time, so the classifier cannot lean on the slot words themselves.
  const lex = loadLexicon();
  const wide: Record<string, readonly string[]> = { person: lex.first, place: lex.cities, food: lex.foods, thing: lex.nouns.map((n) => `${n}s`), topic: lex.nouns };
  const fill = (name: string) => {
    const list = slots[name];
    if (!list) throw new Error(`slot {${name}} has no fillers in slots.txt`);
    const alt = wide[name];
    const text = alt && rng.chance(0.4) ? rng.pick(alt) : rng.pick(list);
    // A filler may itself be a template ("quit my job in (march|june)", "switch to {tech}").
    return /[([{]/.test(text) ? expand(text, rng, fill) : [{ text }];
  };
  const render = (t: string) => joinSegments(expand(t, rng, fill));
  // A frame keeps its {X}/{x} for wrap(); its other slots and alternatives are filled.
  const renderFrame = (t: string) => joinSegments(expand(t, rng, (n) => (n === 'X' || n === 'x' ? [{ text: `{${n}}` }] : fill(n))));
  const section = (name: string): string[] => {
    const list = aug[name];
    if (!list?.length) throw new Error(`augment.txt has no [${name}] section`);
    return list;
  };
  /**
   * v6: corrections and decisions in many frames. A correction frame around a statement of any
   * saveable kind ("sorry, I was wrong earlier, {fact}", "{preference}, not X") is UPDATE_INFO, so the
   * frame decides and not the content; a decision is a choosing lead × what was chosen × a tail
   * ("goin with the green tent, the blue one leaks") or a decided action ("i'm gonna quit my job in march").
   */
  const statementOf = (intent: Intent) => render(rng.pick(templates.filter((t) => t.intent === intent && !t.save)).text);
  const composeCorrection = () => {
    const r = rng.next();
    const content = statementOf(r < 0.6 ? 'SAVE_FACT' : r < 0.8 ? 'SAVE_PREFERENCE' : 'SAVE_DECISION').replace(/[.!?]+$/, '');
    return wrap(renderFrame(rng.pick(section('correction_frames'))), content);
  };
  const composeDecision = () => {
    if (rng.chance(0.35)) return render(rng.pick(section('decision_actions')));
    const tail = rng.chance(0.6) ? render(rng.pick(section('decision_tails'))) : '';
    return joinSegments([{ text: render(rng.pick(section('decision_leads'))) }, { text: ' ' }, { text: render(rng.pick(section('decision_choices'))) }]) + (tail.startsWith(',') || tail.startsWith('.') ? tail : tail ? ` ${tail}` : '');
  };

  const out: IntentExample[] = [];
  const decorate = (base: Omit<IntentExample, 'text'> & { text: string }, allowSaveWrap: boolean): IntentExample => {
    let { text, explicitSave, urgency } = base;
    if (rng.chance(0.12)) text = `${rng.pick(aug.fillers)} ${upperFirst(text)}`;
    let wrapped = false;
    if (allowSaveWrap && !explicitSave && rng.chance(0.3)) {
      text = wrap(rng.chance(0.65) ? composeSaveWrapper(rng, base.intent) : rng.pick(aug.save_wrappers), text);
      explicitSave = true;
      wrapped = true;
    }
    if (urgency === 'normal' && base.intent !== 'GREETING' && rng.chance(0.2)) {
      const high = rng.chance(0.5);
      text = wrap(rng.pick(high ? aug.urgent_high : aug.urgent_low), text);
      urgency = high ? 'high' : 'low';
    }
    if (rng.chance(0.2)) text = rng.pick(aug.prefixes) + lowerFirst(text);
    if (rng.chance(0.15)) text = text.replace(/[.!]$/, '') + rng.pick(aug.suffixes);
    if (rng.chance(0.2)) text = text.split(' ').map((w) => (rng.chance(0.15) ? typo(w, rng) : w)).join(' ');
    // The save word itself mistyped ("remmeber", "bookmrk", "notse"): the words people type fastest.
    if (wrapped && rng.chance(0.12)) text = text.replace(SAVE_WORD_RE, (w) => typo(w, rng));
    if (rng.chance(0.12)) text = chatShorthand(text, rng);
    if (rng.chance(0.08)) text = `${text.replace(/[.!]?$/, '.')} ${rng.pick(aug.fillers)}`;
    // E-mail register: a salutation and sign-off around the message (the intent is the body's).
    if (base.intent !== 'GREETING' && rng.chance(0.08)) text = emailFrame(text, rng, lex.first);
    // Voice dictation: no punctuation (or spoken punctuation), fillers, lower case.
    if (rng.chance(0.08)) return { ...base, text: dictate(text, rng), explicitSave, urgency };
    const c = rng.next();
    if (c < 0.05) text = text.toUpperCase();
    else if (c < 0.33) text = text.toLowerCase();
    else if (rng.chance(0.5)) text = upperFirst(text);
    if (rng.chance(0.3)) text = text.replace(/[.?!]+$/, '');
    return { ...base, text, explicitSave, urgency };
  };

  for (const intent of INTENTS) {
    const ts = templates.filter((t) => t.intent === intent);
    const savable = intent.startsWith('SAVE_') || intent === 'UPDATE_INFO';
    for (let i = 0; i < perIntent; i++) {
      const t = ts[i % ts.length];
      if (intent === 'UPDATE_INFO' && rng.chance(COMPOSED_SHARE.UPDATE_INFO)) {
        out.push(decorate({ text: composeCorrection(), intent, explicitSave: false, urgency: 'normal', tags: ['generated', 'composed'] }, savable));
        continue;
      }
      if (intent === 'SAVE_DECISION' && rng.chance(COMPOSED_SHARE.SAVE_DECISION)) {
        out.push(decorate({ text: composeDecision(), intent, explicitSave: false, urgency: 'normal', tags: ['generated', 'composed'] }, savable));
        continue;
      }
      out.push(decorate({ text: render(t.text), intent, explicitSave: t.save, urgency: t.urgency, tags: ['generated'] }, savable));
    }
  }
  // Hard negatives: save words that are not save requests, as often as a whole class.
  const hard = aug.hard_negatives.map((l) => l.split('\t') as [Intent, string]);
  for (let i = 0; i < perIntent; i++) {
    const [intent, t] = hard[i % hard.length];
    out.push(decorate({ text: render(t), intent, explicitSave: false, urgency: 'normal', tags: ['generated', 'hardneg'] }, false));
  }
  const handwritten = path.join(dir, 'train.tsv');
  if (fs.existsSync(handwritten)) out.push(...readIntentTsv(handwritten).map((e) => ({ ...e, tags: [...e.tags, 'handwritten'] })));
  return out;
}

/** `intent<TAB>save(0|1)<TAB>urgency<TAB>tags(comma list or -)<TAB>text` — the eval format too. */
export function readIntentTsv(file: string): IntentExample[] {
  const out: IntentExample[] = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((raw, n) => {
    if (!raw.trim() || raw.startsWith('#')) return;
    const cols = raw.split('\t');
    if (cols.length < 5) throw new Error(`${file}:${n + 1}: expected 5 tab-separated columns`);
    const [intent, save, urgency, tags, ...rest] = cols;
    if (!(INTENTS as readonly string[]).includes(intent)) throw new Error(`${file}:${n + 1}: unknown intent ${intent}`);
    if (!['low', 'normal', 'high'].includes(urgency)) throw new Error(`${file}:${n + 1}: urgency must be low|normal|high`);
    out.push({ intent: intent as Intent, explicitSave: save === '1', urgency: urgency as Urgency, tags: tags === '-' ? [] : tags.split(','), text: rest.join('\t') });
  });
  return out;
}
