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
    "hang on to this: I'm allergic to penicillin",
    'put it on file that we paid the deposit',
    "don't let me forget that the visa renewal costs 160 euros",
    'file this away - the router login is on the sticker',
    'commit this to memory: we never deploy on Fridays',
    'can you keep track of the fact that Leo is lactose intolerant?',
    "I'd like to save this: my locker is 42",
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
    "I don't remember where I put the config",
    'remember when we went to Crete, that was lovely',
    "thanks, I'll remember that",
    "don't remember this, just tell me how many grams are in an ounce",
    'note the error below, what does it mean?',
    "don't forget error handling this time",
    'Remember me on this computer does not work',
    'hmm I should write this down somewhere',
  ])('vetoes %j as a save request even when the model leans to yes', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(false);
    expect(isExplicitSave(0.99, p)).toBe(false);
  });

  // The compositional keep-grammar (verb × object × destination, "that"-clauses, markers):
  // indirect requests the fixed verbs missed, each of which the old detector left to the model.
  it.each([
    "pop this in your notes - Ayla's shoe size is 31",
    'would you mind keeping a record of this: our boiler is a Worcester 30i',
    "add it to what you know about me: I'm training for a marathon",
    "I need you to know going forward that I'm on call every other week",
    'write down somewhere that the spare tyre is under the boot floor',
    'tuck this away for later: the gate code is 4321',
    'Could you add to your notes that my partner is a nurse?',
    "Busy morning. Anyway, we picked the green sofa, can you hang onto that for me? Thanks",
  ])('hears an indirect save request in %j', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(true);
    expect(isExplicitSave(0, p)).toBe(true);
  });

  it.each([
    'add a dark mode toggle to my profile settings page',
    'jot down a packing list for a weekend in Rome',
    'for the record, who won the 1998 World Cup?',
    'I should keep track of this somewhere, any app ideas?',
    'update the notes field in the CRM schema',
    'can you hang on a sec?',
  ])('does not read %j as a save request', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(false);
    expect(isExplicitSave(0.5, p)).toBe(false);
  });

  // v4: verbs and frames the v3 grammar lacked, typos in the save verb, and the boundary rule
  // that separates "squirrel this away:" (keep what follows) from "save this file" (an app task).
  it.each([
    'bookmark this: the bike shop shuts at 5 on Sundays',
    'Noting for later - the smoke alarm battery was changed in May',
    'could you keep hold of this, our booking ref is QX7Y2',
    'would you mind logging that Sam is gluten free?',
    'squirrel this away for me: the lawnmower takes 2-stroke',
    'write this one down: the loft ladder key is in the blue tin',
    'record the decision: Ella moves to the bigger bedroom',
    'Rememebr my car reg is LK21 XPT',
    'remmeber that the gas man comes thursday',
    "dont ever forget i can't eat shellfish",
    'Need you to remember something. The shed code is 1101.',
    "it'd be really useful if you remembered that I'm on nights this week",
    'please commit to memory that the fuse box is in the garage',
    'file under school: parents evening is on the 4th',
    'mental note for you - the dentist moved to Park Lane',
    "Final plan is Whitby for Easter. Can you keep a note?",
    "update what you've got on file - I work for the council now",
    "so you don't have to ask me again, I'm a size 9 shoe",
    'keep this on your radar: passport renewal in March',
  ])('hears a v4 save request in %j', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(true);
    // Bare clauses ("remember my car reg is…") are weak: a save unless the model is nearly sure it is not.
    expect(isExplicitSave(0.05, p)).toBe(true);
  });

  it.each([
    'did you save it?',
    'should I keep this?',
    'I never write anything down, I just remember it',
    "I'll make a mental note",
    'save this file as a pdf',
    'keep it short: what is a heat pump?',
    'record this video in 4k please',
    'can you note the key differences between a Roth and a traditional IRA',
  ])('does not read %j as a v4 save request', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(false);
    expect(isExplicitSave(0.5, p)).toBe(false);
  });

  it('asks more of the model when a recall request or question carries no save phrase', () => {
    const p = detectPhrases('is my PIN saved in your notes?');
    expect(isExplicitSave(0.85, p, 'RECALL_INFO')).toBe(false);
    expect(isExplicitSave(0.85, p, 'QUESTION')).toBe(false);
    expect(isExplicitSave(0.85, detectPhrases('the shed code is 1101'), 'SAVE_FACT')).toBe(true);
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

describe('save requests in another language mixed into English', () => {
  it.each([
    'merke dir bitte: I prefer the train over flying for anything under six hours',
    'ricorda: I like my espresso ristretto',
    'añade a mis notas: I decided to take the B1 exam in the spring',
    'Bewaar dit even: we go for the June date, not September',
    "Je veux que tu retiennes ça: I'm taking the sabbatical in autumn.",
    "I'll take the evening Polish class, wpisz to do notatek please",
    'n2s: the allotment fee is 25 a year',
  ])('hears %j as a save', (text) => {
    const p = detectPhrases(text);
    expect(p.saveRequest).toBe(true);
    expect(isExplicitSave(0, p)).toBe(true);
  });

  it.each(['¿recuerdas qué dije del vuelo?', 'ti ricordi cosa ho detto?', 'lembra quando fomos a Lisboa?', 'I can never remember how to say "anota" in Italian'])(
    'a question or a mention in %j keeps nothing',
    (text) => expect(detectPhrases(text).saveRequest).toBe(false),
  );
});
