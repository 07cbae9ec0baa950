/**
 * v7 trains on the independently written sets: the weights chosen by leave-one-set-out are a
 * readable file with every figure finite, the shipped cards say which sets and how many rows went
 * in, and the augmentation is deterministic, keeps labels and keeps every entity inside its span.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCard } from '../../../electron/core/domains/nlp/cards';
import { augmentIntent, augmentNer, independentSets, independentTraining, readWeights, WEIGHTS_FILE } from '../../../models/train/independent';
import { readIntentTsv } from '../../../models/train/generate-intent';
import { readAnnotated } from '../../../models/train/generate-ner';
import { detectPhrases } from '../../../electron/core/domains/nlp/phrases';
import { REPO_ROOT } from '../../helpers/owner';

const corpora = path.join(REPO_ROOT, 'models', 'corpora');
const SEED = 20251123;

describe('independent-weights.json (chosen by models/train/loso.ts)', () => {
  const raw = JSON.parse(fs.readFileSync(WEIGHTS_FILE, 'utf8')) as {
    sets: string[];
    intent: { copies: number };
    ner: { copies: number };
    loso: { intent: Array<{ weighting: { copies: number }; score: number; sets: Record<string, Record<string, number>> }>; ner: Array<{ weighting: { copies: number }; score: number; sets: Record<string, { f1: number; per_type: Record<string, number> }> }> };
  };

  it('names the sets it was chosen over, and they are the independent sets in the repository', () => {
    expect(raw.sets).toEqual(independentSets(REPO_ROOT).map((s) => s.name));
    expect(raw.sets).toEqual(expect.arrayContaining(['blind', 'models-b', 'models-c']));
  });

  it('holds whole, non-negative row counts and a finite LOSO figure for every weighting and left-out set', () => {
    const w = readWeights();
    for (const m of [w.intent, w.ner]) {
      expect(Number.isInteger(m.copies)).toBe(true);
      expect(m.copies).toBeGreaterThanOrEqual(0);
    }
    expect(raw.loso.intent.length).toBeGreaterThan(1);
    expect(raw.loso.ner.length).toBeGreaterThan(1);
    for (const row of raw.loso.intent) {
      expect(Number.isFinite(row.score)).toBe(true);
      expect(Object.keys(row.sets).sort()).toEqual([...raw.sets].sort());
      for (const figs of Object.values(row.sets)) for (const [k, v] of Object.entries(figs)) expect(Number.isFinite(v) && v >= 0 && v <= 1, k).toBe(true);
    }
    for (const row of raw.loso.ner) {
      expect(Object.keys(row.sets).sort()).toEqual([...raw.sets].sort());
      for (const figs of Object.values(row.sets)) {
        expect(figs.f1).toBeGreaterThan(0);
        expect(Object.keys(figs.per_type).sort()).toEqual(['DATE', 'GPE', 'ORG', 'PERSON', 'PRODUCT', 'TIME']);
      }
    }
  });

  it('is the best-scoring weighting of its own table (ties to fewer rows)', () => {
    for (const [model, rows] of [['intent', raw.loso.intent], ['ner', raw.loso.ner]] as const) {
      const best = [...rows].sort((a, b) => b.score - a.score || a.weighting.copies - b.weighting.copies)[0];
      expect(raw[model].copies, model).toBe(best.weighting.copies);
    }
  });
});

describe('shipped cards', () => {
  it('record the independent rows that went into training: lines × rows per line', () => {
    const w = readWeights();
    const sets = independentSets(REPO_ROOT);
    const lines = { intent: sets.flatMap((s) => (s.intent ? readIntentTsv(s.intent) : [])).length, ner: sets.flatMap((s) => (s.ner ? readAnnotated(s.ner) : [])).length };
    const intent = readCard(path.join(REPO_ROOT, 'models', 'intent.json'));
    const ner = readCard(path.join(REPO_ROOT, 'models', 'ner.json'));
    expect(intent.training.examples.independent).toBe(lines.intent * w.intent.copies);
    expect(ner.training.examples.independent).toBe(lines.ner * w.ner.copies);
    for (const s of sets) expect(intent.training.corpus).toContain(s.name === 'blind' ? 'tests/fixtures/blind' : `tests/fixtures/blind/${s.name}`);
  });
});

describe('augmentation of independent lines', () => {
  const sets = independentSets(REPO_ROOT);
  const intentRows = readIntentTsv(sets[0].intent ?? '').slice(0, 40);
  const nerRows = readAnnotated(sets[0].ner ?? '').slice(0, 40);

  it('is deterministic and keeps every label of an intent line', () => {
    const a = augmentIntent(intentRows, { copies: 5 }, SEED, corpora);
    const b = augmentIntent(intentRows, { copies: 5 }, SEED, corpora);
    expect(a).toEqual(b);
    expect(a).toHaveLength(intentRows.length * 5);
    a.forEach((v, i) => {
      const src = intentRows[Math.floor(i / 5)];
      expect([v.intent, v.explicitSave, v.urgency]).toEqual([src.intent, src.explicitSave, src.urgency]);
      if (i % 5 === 0) expect(v.text).toBe(src.text);
    });
    // Most variants read differently from the line they come from.
    expect(a.filter((v, i) => i % 5 !== 0 && v.text !== intentRows[Math.floor(i / 5)].text).length).toBeGreaterThan(intentRows.length * 3);
  });

  it("gives a line the same variants whichever other lines are in training (LOSO runs differ only by the set left out)", () => {
    const alone = augmentIntent(intentRows.slice(7, 8), { copies: 6 }, SEED, corpora);
    const among = augmentIntent(intentRows, { copies: 6 }, SEED, corpora).slice(7 * 6, 8 * 6);
    expect(alone).toEqual(among);
  });

  it('keeps each NER sentence\'s entities in order and type, inside spans that lie within the text', () => {
    const out = augmentNer(nerRows, { copies: 4 }, SEED, corpora);
    expect(out).toEqual(augmentNer(nerRows, { copies: 4 }, SEED, corpora));
    out.forEach((v, i) => {
      const src = nerRows[Math.floor(i / 4)];
      expect(v.spans.map((s) => s.type)).toEqual(src.spans.map((s) => s.type));
      for (const s of v.spans) {
        expect(s.end).toBeLessThanOrEqual(v.text.length);
        const inside = v.text.slice(s.start, s.end);
        expect(inside.trim().length, `${v.text} ${s.type}`).toBeGreaterThan(0);
      }
    });
  });

  it('leaves the named set out entirely', () => {
    const w = { intent: { copies: 2 }, ner: { copies: 2 } };
    const all = independentTraining(sets, w, SEED, corpora);
    const without = independentTraining(sets, w, SEED, corpora, 'models-c');
    expect(without.used).not.toContain('models-c');
    // Lines only models-c has (a few short greetings are written the same in several sets).
    const others = new Set(sets.filter((s) => s.name !== 'models-c').flatMap((s) => (s.intent ? readIntentTsv(s.intent) : [])).map((e) => e.text));
    const cTexts = new Set(readIntentTsv(path.join(REPO_ROOT, 'tests', 'fixtures', 'blind', 'models-c', 'intent.tsv')).map((e) => e.text).filter((t) => !others.has(t)));
    expect(all.intent.some((e) => cTexts.has(e.text))).toBe(true);
    expect(without.intent.some((e) => cTexts.has(e.text))).toBe(false);
  });
});

describe('save detector v7: emoji closing a message end its last clause', () => {
  it.each(['my gamertag is NightOwl_Kaz btw, keep that 🦉', 'the gate code is 4471, save it 🙏🏽', 'locker 12 is mine now, keep this 👍'])('asks to keep: %s', (t) => {
    expect(detectPhrases(t).saveStrong).toBe(true);
  });
  it.each(['how do i save it? 🙏', "we're keeping the old sofa 😂", "don't save this 🙏"])('does not: %s', (t) => {
    expect(detectPhrases(t).saveStrong).toBe(false);
  });
});

describe('save detector: "remember for next time that …" keeps a fact; "remember (next time) to …" is an instruction', () => {
  it.each(['remember for next time that I take my coffee black', 'Remember for later that the spare key is under the pot', 'remember for the future that my landlord is called Omar'])('asks to keep: %s', (t) => {
    expect(detectPhrases(t).saveRequest).toBe(true);
  });
  it.each(['remember to add tests in your answer', 'remember next time to use tabs in the code', 'Remember this time to include types in your answer'])('an instruction for the reply: %s', (t) => {
    expect(detectPhrases(t).saveRequest).toBe(false);
  });
});
