/**
 * Entity extraction for inbox items: names the vault already knows (titles and aliases,
 * including implicit ones like "my son" recorded as an alias), rule aliases ("PN" → Priya),
 * the NER model when it is loaded, and a capitalised-phrase heuristic otherwise.
 */
import type { Nlp } from '../nlp';
import { capitalizedPhrases, normName, type NameLookup } from '../vault';

export interface FoundEntity {
  /** As written in the item. */
  text: string;
  /** The name it resolves to (an alias's canonical name, or the text). */
  name: string;
  /** 'known': a vault title/alias; 'topic': a one-word lowercase title match; else where it came from. */
  source: 'known' | 'topic' | 'rule-alias' | 'ner' | 'capitalized' | 'hint' | 'tag';
}

const WEAK_TITLES = new Set(
  'index readme home inbox notes note ideas idea todo todos misc archive journal daily log meeting meetings untitled draft drafts list lists plan plans work family people projects project resources reference'.split(' '),
);

/** Known names in `text` by longest n-gram match against the dictionary (≤ 5 words). */
export function knownNames(text: string, dict: NameLookup, aliases: Map<string, string>, exclude: Set<string> = new Set()): FoundEntity[] {
  const tokens = [...text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)].map((m) => m[0]);
  const norms = tokens.map((t) => normName(t));
  const out: FoundEntity[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < tokens.length; ) {
    let matched = 0;
    for (let n = Math.min(5, tokens.length - i); n >= 1; n--) {
      const key = norms.slice(i, i + n).join(' ');
      if (!key) continue;
      const raw = tokens.slice(i, i + n).join(' ').replace(/['’]s$/u, '');
      const alias = aliases.get(key);
      if (alias) {
        if (!seen.has(normName(alias))) out.push({ text: raw, name: alias, source: 'rule-alias' });
        seen.add(normName(alias));
        matched = n;
        break;
      }
      if (!dict.has(key) || exclude.has(key)) continue;
      if (n === 1) {
        if (key.length < 3 && !/^[A-Z0-9]{2}$/.test(raw)) continue;
        if (WEAK_TITLES.has(key) || /^\d+$/.test(key)) continue;
      }
      if (!seen.has(key)) {
        const capital = /^\p{Lu}/u.test(raw) || n > 1;
        out.push({ text: raw, name: raw, source: capital ? 'known' : 'topic' });
      }
      seen.add(key);
      matched = n;
      break;
    }
    i += matched || 1;
  }
  return out;
}

export async function extractEntities(
  text: string,
  opts: { dict: NameLookup; aliases: Map<string, string>; nlp?: Nlp; hints?: string[]; tags?: string[]; exclude?: Set<string> },
): Promise<FoundEntity[]> {
  const out: FoundEntity[] = [];
  const seen = new Set<string>();
  const add = (e: FoundEntity) => {
    const k = normName(e.name);
    if (!k || seen.has(k)) return;
    seen.add(k);
    out.push(e);
  };
  for (const h of opts.hints ?? []) add({ text: h, name: opts.aliases.get(normName(h)) ?? h, source: 'hint' });
  for (const e of knownNames(text, opts.dict, opts.aliases, opts.exclude)) add(e);
  if (opts.nlp) {
    try {
      for (const s of await opts.nlp.entities(text.slice(0, 4000))) {
        if (s.type === 'DATE' || s.type === 'TIME' || s.score < 0.5 || /[.!?;:]\s/.test(s.text)) continue;
        add({ text: s.text, name: opts.aliases.get(normName(s.text)) ?? s.text, source: 'ner' });
      }
    } catch {
      // The model is an improvement, not a requirement: the heuristic below still runs.
    }
  }
  for (const p of capitalizedPhrases(text, 20)) add({ text: p, name: opts.aliases.get(normName(p)) ?? p, source: 'capitalized' });
  for (const t of opts.tags ?? []) add({ text: t, name: t, source: 'tag' });
  return out;
}
