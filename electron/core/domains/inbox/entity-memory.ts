/**
 * Entity-level memory: the names an item carries (capitalised names and acronyms, wiki links,
 * e-mail addresses and their domains, and the names the NER model found) are remembered with the
 * folder the person filed it in. The next item naming the same entity leans to that folder, by how
 * distinctive the name is in the vault (a name few notes use says more than a common word written
 * with a capital) and by how consistently the person filed items naming it. Few items resemble
 * each other as texts; many name the same client, colleague or project.
 */
import { capitalizedPhrases, normName } from '../vault';
import { terms, type Profiles } from './profiles';

/** Entity key → how it was written (for the reasoning). */
export type EntityKeys = Map<string, string>;

/** Per entity key: the folders items naming it were filed in (count, and how many were corrections). */
export interface EntityMemory {
  display: string;
  folders: Map<string, { n: number; edited: number }>;
}

const EMAIL = /\b[\w.+-]+@([\w-]+(?:\.[\w-]+)+)\b/g;
const WIKI = /\[\[([^\]|#\n]+)(?:[|#][^\]\n]*)?\]\]/g;
const NOISE = /^(?:[\d\s.,:/-]+|.)$/;

/** The entity keys of a text: single words of capitalised names and acronyms, wiki-link targets, e-mails and domains. */
export function entityKeys(title: string, text: string, names: string[] = []): EntityKeys {
  const out: EntityKeys = new Map();
  const add = (key: string, shown: string) => {
    if (key && !NOISE.test(key) && !out.has(key)) out.set(key, shown);
  };
  const words = (phrase: string) => {
    for (const w of phrase.split(/\s+/)) {
      const k = normName(w);
      // Shown as the whole name it was part of ("about Mrs Okonjo", not "about Mrs").
      if (k.length >= 3 || /^[A-Z0-9]{2}$/.test(w)) add(k, phrase.replace(/['’]s\b/gu, ''));
    }
  };
  const all = `${title}\n${text}`;
  for (const m of all.matchAll(EMAIL)) {
    add(`email:${m[0].toLowerCase()}`, m[0]);
    add(`domain:${(m[1] ?? '').toLowerCase()}`, m[1] ?? '');
  }
  for (const m of all.matchAll(WIKI)) add(`link:${normName(m[1] ?? '')}`, (m[1] ?? '').trim());
  // Addresses are not names ("okoro@…" is found above as an address).
  for (const p of capitalizedPhrases(all.replace(EMAIL, ' ').replace(/https?:\/\/\S+/g, ' '), 30)) words(p);
  for (const n of names) words(n);
  return out;
}

/**
 * How distinctive a key is in the vault (0–1): 1 for a name no note uses, 0 for words a fifth of
 * the notes use. Addresses are distinctive; a domain a little less (colleagues share it).
 */
export function distinctiveness(key: string, p: Profiles): number {
  if (key.startsWith('email:')) return 1;
  if (key.startsWith('domain:')) return 0.6;
  const ts = terms(key.replace(/^link:/, ''));
  // Acronyms and codes terms() drops (numbers, two letters): as distinctive as a rare word.
  if (!ts.length) return /[a-z]/.test(key) && key.length >= 2 ? 0.6 : 0;
  const lo = Math.log(5);
  const hi = Math.log((p.docs + 1) / 1.5);
  if (hi <= lo) return 1;
  return Math.max(...ts.map((t) => Math.max(0, Math.min(1, (p.idf(t) - lo) / (hi - lo)))));
}

export interface EntityVotes {
  votes: Map<string, number>;
  /** Folder → the entity that speaks most for it and how many earlier items named it there. */
  why: Map<string, { display: string; n: number }>;
  /** 0–1: how much there is of it (the strongest entity's distinctiveness and support). */
  amount: number;
}

/**
 * Folder votes from the item's entities that earlier filed items named: per entity, its folders
 * share `6 × distinctiveness` by how many items the person put in each (one imagined item elsewhere,
 * so one example is a lean, not a rule; a correction counts 1.5×). Several names of one item add
 * up, but a folder gets at most 1.5× its strongest entity's vote.
 */
export function entityMemoryVotes(mem: Map<string, EntityMemory>, keys: EntityKeys, p: Profiles, vaultNotes?: (key: string) => number): EntityVotes {
  const perFolder = new Map<string, number[]>();
  const why = new Map<string, { display: string; n: number; w: number }>();
  let amount = 0;
  for (const key of keys.keys()) {
    const m = mem.get(key);
    if (!m) continue;
    const d = distinctiveness(key, p);
    if (d <= 0.05) continue;
    let total = 0;
    for (const x of m.folders.values()) total += x.n + 0.5 * x.edited;
    // The vault's own notes naming it are earlier evidence too: a name many notes use is learnt more slowly.
    const prior = 1 + Math.min(3, 0.5 * (vaultNotes?.(key) ?? 0));
    for (const [f, x] of m.folders) {
      const w = (6 * d * (x.n + 0.5 * x.edited)) / (total + prior);
      perFolder.set(f, [...(perFolder.get(f) ?? []), w]);
      const cur = why.get(f);
      if (!cur || w > cur.w) why.set(f, { display: m.display, n: x.n, w });
      amount = Math.max(amount, d * Math.min(1, (x.n + 0.5 * x.edited) / 2) * ((x.n + 0.5 * x.edited) / total));
    }
  }
  const votes = new Map<string, number>();
  for (const [f, ws] of perFolder) {
    const sum = ws.reduce((a, b) => a + b, 0);
    votes.set(f, Math.min(sum, 1.5 * Math.max(...ws)));
  }
  return { votes, why: new Map([...why].map(([f, { display, n }]) => [f, { display, n }])), amount };
}
