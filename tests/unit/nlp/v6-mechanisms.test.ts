import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectPhrases } from '../../../electron/core/domains/nlp';
import { expandSaveAbbreviations } from '../../../electron/core/domains/nlp/phrases';
import { spansFromPath } from '../../../electron/core/domains/nlp/decode';
import { tokenize } from '../../../electron/core/domains/nlp/tokenize';
import { generateIntentCorpus } from '../../../models/train/generate-intent';
import { generateNerCorpus } from '../../../models/train/generate-ner';
import { mulberry32 } from '../../../models/train/prng';
import { REPO_ROOT } from '../../helpers/owner';

const corpora = path.join(REPO_ROOT, 'models', 'corpora');

describe('save detector v6: save verbs without vowels', () => {
  it('reads a vowel-dropped save verb as the verb and leaves other short words alone', () => {
    expect(expandSaveAbbreviations('rmbr that i prefer pnpm')).toBe('remember that i prefer pnpm');
    expect(expandSaveAbbreviations('pls rembr this, and bkmrk it')).toBe('pls remember this, and bookmark it');
    expect(expandSaveAbbreviations('the rib and the bar are fine, 100 rmb')).toBe('the rib and the bar are fine, 100 rmb');
  });
});

describe('save detector v6: memory targets, frames and closings', () => {
  it.each([
    'rmbr that my flight lands at 6:40 on the 3rd',
    'add to my prefs: i run in the mornings only',
    'add this to the decision log pls: v1 is deprecated at the end of the year',
    'we are repainting the shed green - write it in my garden log',
    'keep in mind my wife is allergic to peanuts',
    'for future chats, please remember how i like code reviews: bugs first',
    'my bike lock code is 4471 can u memorise it',
    'the dentist is Dr Okafor, worth keeping in your memory',
    'It is Leeds, not York. Remember it right this time.',
    'what I said about the venue was wrong, it is the town hall. Please correct it in memory.',
    'nb save: the spare key is with the neighbours',
    'save for l8r: my locker is number 27',
    'please to remember I like the appointments in the morning',
    'mem this: decided on the estate car',
  ])('asks to keep: %s', (text) => {
    const s = detectPhrases(text);
    expect(s.saveRequest && s.saveStrong).toBe(true);
  });

  it.each([
    'note: the following is a draft, pls proofread. "Dear Sir, I am writing to apply..."',
    'update my release notes for v2',
    'remember to use the right flag this time',
    'remember how we went camping as kids?',
    'keep: scrolling',
    'the notes section of the profile page is broken',
  ])('keeps nothing: %s', (text) => {
    expect(detectPhrases(text).saveRequest).toBe(false);
  });
});

describe('span decoding v6: sentence-final periods', () => {
  const labels = ['O', 'B-DATE', 'I-DATE'];
  const decode = (text: string, path: number[]) => {
    const tokens = tokenize(text);
    expect(tokens).toHaveLength(path.length);
    return spansFromPath(text, tokens, path, labels, new Array<number>(tokens.length * labels.length).fill(-0.1)).map((s) => s.text);
  };

  it('leaves the full stop after a lone year outside the span', () => {
    expect(decode('he joined in 2019.', [0, 0, 0, 1, 2])).toEqual(['2019']);
  });
});

describe('intent generator v6: corrections and decisions in many frames', () => {
  const corpus = generateIntentCorpus(corpora, mulberry32(7), 300);
  const composed = corpus.filter((e) => e.tags.includes('composed'));

  it('composes a share of UPDATE_INFO from correction frames and of SAVE_DECISION from decision frames, and nothing else', () => {
    const byIntent = (i: string) => composed.filter((e) => e.intent === i).length;
    expect(byIntent('UPDATE_INFO')).toBeGreaterThan(60);
    expect(byIntent('SAVE_DECISION')).toBeGreaterThan(50);
    expect(composed.every((e) => e.intent === 'UPDATE_INFO' || e.intent === 'SAVE_DECISION')).toBe(true);
  });

  it('leaves no template syntax in composed messages', () => {
    for (const e of composed) expect(e.text, e.text).not.toMatch(/[{}[\]|]|\(\w+\|/);
  });
});

describe('NER generator v6: the independent sets’ DATE convention', () => {
  const corpus = generateNerCorpus(corpora, mulberry32(11), 3000);
  const dates = corpus.flatMap((e) => e.spans.filter((s) => s.type === 'DATE').map((s) => e.text.slice(s.start, s.end)));

  it('never starts a DATE span with "the" or "every", and tags no bare duration', () => {
    expect(dates.length).toBeGreaterThan(300);
    expect(dates.filter((d) => /^(?:the|every)\s/i.test(d))).toEqual([]);
    expect(dates.filter((d) => /^(?:in |within )?(?:two|three|a few|\d+) (?:days|weeks|months)$/i.test(d))).toEqual([]);
  });
});
