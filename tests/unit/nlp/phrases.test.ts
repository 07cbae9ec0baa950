import { describe, expect, it } from 'vitest';
import { detectPhrases, seedPhraseDetector } from '../../../electron/core/domains/nlp';
import { isExplicitSave } from '../../../electron/core/domains/nlp/activation';

describe('phrase detector', () => {
  it.each([
    'Remember that I prefer TypeScript',
    'please make a note: standup moved to 10',
    'for future reference, the wifi password is hunter2',
    "hey, don't forget that Maria starts Monday",
    'can you remember that my sister is allergic to peanuts?',
    'Keep in mind that I am vegetarian',
    'save this for later: the api key rotates monthly',
  ])('hears an explicit save request in %j', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(true);
    expect(isExplicitSave(0, p)).toBe(true);
  });

  it.each([
    'do you remember how recursion works?',
    'I can never remember the rebase flags',
    'note that this returns null — why?',
    "don't forget to include tests in your answer",
    'no need to remember this, just curious',
  ])('vetoes %j as a save request even when the model leans to yes', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(false);
    expect(isExplicitSave(0.99, p)).toBe(false);
  });

  it.each(['how do i save this in vim?', 'Make a note-taking template for meeting minutes', 'save this file as csv please'])(
    'finds no save request in %j (the model decides)',
    (text) => {
      expect(detectPhrases(text).saveRequest).toBe(false);
      expect(isExplicitSave(0.1, detectPhrases(text))).toBe(false);
    },
  );

  it('the seed baseline misfires on the hard negatives we handle', () => {
    expect(seedPhraseDetector('do you remember how recursion works?').saveRequest).toBe(true);
    expect(seedPhraseDetector("don't forget to include tests in your answer").saveRequest).toBe(true);
  });

  it('recognises recall requests and graded importance, with negation', () => {
    expect(detectPhrases('what did I say about the budget?').recallRequest).toBe(true);
    expect(detectPhrases('This is really important: never deploy on Fridays').importanceLevel).toBe(2);
    expect(detectPhrases('this is important').importanceLevel).toBe(1);
    expect(detectPhrases("it's not that important").importanceLevel).toBe(0);
  });
});
