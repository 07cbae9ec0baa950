/**
 * The one tokenizer shared by training and inference. Tokens keep UTF-16 offsets into the
 * original text so entity spans can be cut from what the user wrote, untouched.
 */
export interface Token {
  text: string;
  start: number;
  end: number;
}

/**
 * Abbreviations that keep their period, so "Dr." and "Inc." stay one token and a sentence
 * boundary is not guessed inside "Dr. Amara Singh".
 */
const ABBREVIATIONS = new Set([
  'dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'mt', 'jr', 'sr', 'inc', 'corp', 'ltd', 'co', 'llc', 'gmbh',
  'vs', 'etc', 'e.g', 'i.e', 'approx', 'dept', 'univ', 'ave', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul',
  'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'tues', 'wed', 'thu', 'thurs', 'fri', 'sat', 'sun',
]);

// Order matters: initials ("J.") and dotted abbreviations first, then words with inner
// apostrophes/hyphens/dots ("o'brien", "node.js", "Jean-Luc"), numbers with separators
// ("2026-04-01", "10:30", "3.5"), then any single other non-space character (emoji included).
const TOKEN_RE =
  /\p{Lu}\.(?=\s|$|\p{Lu})|(?:\p{L}\.){2,}|[\p{L}\p{M}][\p{L}\p{M}\p{N}]*(?:['’\-.+#][\p{L}\p{M}\p{N}]+)*[+#]*|\p{N}+(?:[.:,/-]\p{N}+)*|\S/gu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(text); m !== null; m = TOKEN_RE.exec(text)) {
    let tok = m[0];
    let end = m.index + tok.length;
    // Surrogate pairs: \S matches half an emoji; keep the pair together.
    if (tok.length === 1 && /[\uD800-\uDBFF]/.test(tok) && end < text.length) {
      tok = text.slice(m.index, end + 1);
      end += 1;
      TOKEN_RE.lastIndex = end;
    }
    // Possessives split off so "Maria's" yields the name "Maria".
    const poss = /^(.+?)(['’][sS])$/u.exec(tok);
    const [, stem = '', suffix = ''] = poss ?? [];
    if (poss && stem.length > 1 && /[\p{L}\p{N}]$/u.test(stem)) {
      out.push({ text: stem, start: m.index, end: m.index + stem.length });
      out.push({ text: suffix, start: m.index + stem.length, end });
      continue;
    }
    if (text[end] === '.' && ABBREVIATIONS.has(tok.toLowerCase())) {
      tok += '.';
      end += 1;
      TOKEN_RE.lastIndex = end;
    }
    out.push({ text: tok, start: m.index, end });
  }
  return out;
}

/** Coarse word shape: "Amara" → "Xx", "Q1" → "Xd", "2026-04-01" → "d-d-d", "postgres" → "x". */
export function wordShape(word: string): string {
  let shape = '';
  let last = '';
  for (const ch of word) {
    let c: string;
    if (/\p{Lu}/u.test(ch)) c = 'X';
    else if (/\p{L}/u.test(ch)) c = 'x';
    else if (/\p{N}/u.test(ch)) c = 'd';
    else c = ch;
    if (c !== last) shape += c;
    last = c;
  }
  return shape;
}
