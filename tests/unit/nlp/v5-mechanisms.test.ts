import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxNlp } from '../../../electron/core/domains/nlp/onnx';
import { detectPhrases } from '../../../electron/core/domains/nlp';
import { expandChatShorthand } from '../../../electron/core/domains/nlp/phrases';
import { intentGivenSave } from '../../../electron/core/domains/nlp/activation';
import { spansFromPath } from '../../../electron/core/domains/nlp/decode';
import { tokenize } from '../../../electron/core/domains/nlp/tokenize';
import { LEX } from '../../../electron/core/domains/nlp/gazetteer';
import { INTENTS, type Intent, type IntentResult } from '../../../electron/core/domains/nlp/contract';
import { REPO_ROOT } from '../../helpers/owner';

describe('save detector: chat shorthand and corrections of what is kept', () => {
  it('reads "u"/"ur"/"r" as "you"/"your"/"are" without touching words that contain them', () => {
    expect(expandChatShorthand('pls update what u have on file')).toBe('pls update what you have on file');
    expect(expandChatShorthand('ur notes r wrong')).toBe('your notes are wrong');
    expect(expandChatShorthand('run the user query, turn right')).toBe('run the user query, turn right');
  });

  it.each([
    'pls update what u have on file: the gym moved to the high street',
    'can u keep this in ur notes: my locker is 41',
    'for later: the spare key is under the blue pot',
    'for safekeeping - the boiler serial is 88-1204',
    'update my saved shoe size to 45',
    'change the stored address to 4 Elm Road',
  ])('a request to keep or correct what is kept: %s', (text) => {
    expect(detectPhrases(text).saveRequest).toBe(true);
  });

  it.each(['for later, what should i cook?', 'u there?', 'how do i update my saved passwords in chrome?', 'I use R for stats at work'])(
    'no save request: %s',
    (text) => {
      expect(detectPhrases(text).saveRequest).toBe(false);
    },
  );
});

describe('intent of a message that asks to be kept', () => {
  const result = (intent: Intent, probs: Partial<Record<Intent, number>>): IntentResult => ({
    intent,
    confidence: probs[intent] ?? 0,
    probs: Object.fromEntries(INTENTS.map((k) => [k, probs[k] ?? 0])) as Record<Intent, number>,
  });

  it('takes the most probable saveable intent when the head says question, greeting or recall', () => {
    const r = intentGivenSave(result('QUESTION', { QUESTION: 0.5, SAVE_PREFERENCE: 0.3, SAVE_FACT: 0.2 }), true);
    expect(r.intent).toBe('SAVE_PREFERENCE');
    expect(r.confidence).toBe(0.3);
    expect(intentGivenSave(result('RECALL_INFO', { RECALL_INFO: 0.6, UPDATE_INFO: 0.25, SAVE_FACT: 0.15 }), true).intent).toBe('UPDATE_INFO');
  });

  it('leaves the intent alone when nothing is to be kept or it is already saveable', () => {
    const q = result('QUESTION', { QUESTION: 0.5, SAVE_PREFERENCE: 0.3 });
    expect(intentGivenSave(q, false)).toBe(q);
    const d = result('SAVE_DECISION', { SAVE_DECISION: 0.7 });
    expect(intentGivenSave(d, true)).toBe(d);
  });
});

describe('span decoding trims punctuation and emoji at the edges', () => {
  const labels = ['O', 'B-DATE', 'I-DATE', 'B-PERSON', 'I-PERSON'];
  const decode = (text: string, path: number[]) => {
    const tokens = tokenize(text);
    expect(tokens).toHaveLength(path.length);
    return spansFromPath(text, tokens, path, labels, new Array<number>(tokens.length * labels.length).fill(-0.1)).map((s) => s.text);
  };

  it('drops a dash, a full stop or an emoji the tagger ran into', () => {
    expect(decode('renew on 1 April — talk to Sipho', [0, 0, 1, 2, 2, 0, 0, 3])).toEqual(['1 April', 'Sipho']);
    expect(decode('see you Sunday.', [0, 0, 1, 2])).toEqual(['Sunday']);
    expect(decode('my cousin Yusuf 🥹', [0, 0, 3, 4])).toEqual(['Yusuf']);
  });

  it('keeps the period of a day-first numeric date', () => {
    expect(decode('dated 03.04. today', [0, 1, 2, 0])).toEqual(['03.04.']);
  });
});

describe('gazetteers from packages', () => {
  it('lists world towns and single-word brands (a hash-chosen share of each)', () => {
    expect(LEX.place.size).toBeGreaterThan(12000);
    expect(LEX.brand.size).toBeGreaterThan(1000);
    for (const w of LEX.brand) expect(w).toBe(w.toLowerCase());
  });
});

describe('NER conventions the v5 generator teaches', () => {
  let nlp: OnnxNlp;
  beforeAll(async () => {
    nlp = await OnnxNlp.load({ intent: path.join(REPO_ROOT, 'models', 'intent.onnx'), ner: path.join(REPO_ROOT, 'models', 'ner.onnx') });
  });
  afterAll(() => nlp.dispose());

  it('splits a day and the part of the day into DATE and TIME', async () => {
    const spans = await nlp.entities('the review moved to Thursday afternoon');
    expect(spans.map((s) => [s.text, s.type])).toEqual(expect.arrayContaining([['Thursday', 'DATE'], ['afternoon', 'TIME']]));
  });

  it('keeps a time-zone abbreviation inside the TIME span', async () => {
    const spans = await nlp.entities('the call is at 4pm EAT with the Nairobi team');
    expect(spans.find((s) => s.type === 'TIME')?.text).toBe('4pm EAT');
  });
});
