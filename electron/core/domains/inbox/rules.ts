/**
 * `_brain_config/inbox_rules.md`: the ADR's format (rule headings with **Pattern** /
 * **Destination** / **Transform**, Default Behavior, Folder Structure) and the looser bullets
 * people actually write ("anything about Owen's soccer → family/owen/", "'PN' means Priya").
 * What cannot be interpreted is returned verbatim in `unparsed` for the calling model.
 */
import { normName } from '../vault';

export const RULES_PATH = '_brain_config/inbox_rules.md';

/** One condition of a rule's Pattern; a rule matches when any of its `anyOf` groups fully matches. */
export type Condition =
  | { kind: 'title_contains'; text: string }
  | { kind: 'content_contains'; text: string }
  | { kind: 'mentions'; words: string[]; about?: boolean }
  | { kind: 'tag'; tag: string }
  /** A pattern written as a list of cues ("receipt, order confirmation or invoice from a supplier (A, B, C)"): at least `need` of the phrases (each its words) are mentioned. */
  | { kind: 'cues'; phrases: string[][]; need: number }
  /** A reference format given by examples ("in the format `2026/0142/FUL`"): a regular expression source. */
  | { kind: 'format'; pattern: string };

export interface Rule {
  name: string;
  /** Disjunction of conjunctions. */
  anyOf: Condition[][];
  /** Template: `work/meetings/{date}-{title-slug}.md`, or a folder (`family/owen/`). */
  destination: string;
  transform?: string;
  source: 'adr' | 'bullet';
  /** What a loose rule lists after its subject ("anything about Pickle — vet, meds, boots"): mentioning one is partial evidence. */
  also?: string[][];
}

export interface Rules {
  loaded: boolean;
  rules: Rule[];
  /** normalised alias → canonical name ("pn" → "Priya"). */
  aliases: Map<string, string>;
  /** Folder → description words (Folder Structure section). */
  folders: Map<string, string>;
  threshold: number;
  /** What to do with items no rule or evidence places: 'keep' (default). */
  noMatch: 'keep';
  unparsed: string[];
}

/** The ADR's defaults when the file is missing: keyword + search similarity, all for approval, threshold 0.5. */
export function defaultRules(): Rules {
  return { loaded: false, rules: [], aliases: new Map(), folders: new Map(), threshold: 0.5, noMatch: 'keep', unparsed: [] };
}

const FILLER = new Set(
  'anything everything all any notes note items item stuff things about regarding mentioning mention mentions on of for the a an with to goes go file put save into in under related re that is are should it its from by and'.split(' '),
);

const cleanFolder = (s: string) => s.trim().replace(/^[`'"]+|[`'".,;]+$/g, '').replace(/^\/+/, '');

/** Placeholders a destination template may use (renderDestination). */
const KNOWN_VARS = /^\{(date|year|month|title-slug|slug|title)\}$/;
/**
 * A Destination field: a path, or prose naming paths in backticks ("append to the matching
 * `Termbase/{pair} {field}.md` if one exists; otherwise new note in `Termbase/`") → the last
 * backticked path that uses only placeholders Mailroom fills in.
 */
function adrDestination(dest: string): string {
  const quoted = [...dest.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
  if (quoted.length === 0 || dest.replace(/`[^`]+`/g, '').trim().split(/\s+/).length < 3) return cleanFolder(dest);
  const usable = quoted.filter((q) => (q.match(/\{[^}]*\}/g) ?? []).every((v) => KNOWN_VARS.test(v)));
  return cleanFolder(usable.at(-1) ?? quoted.at(-1) ?? dest);
}

function keywords(text: string): string[] {
  return text
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1 && !FILLER.has(w));
}

// Quotation marks, not apostrophes inside words ("Owen's soccer and Mia's dance" quotes nothing).
const quoted = (s: string) => [...s.matchAll(/(?<![\p{L}\p{N}])["“”'‘’`]([^"“”'‘’`]+)["“”'‘’`](?![\p{L}\p{N}])/gu)].map((m) => (m[1] ?? '').trim()).filter(Boolean);

const VERB = /\b(contains?|has|have|includes?|mentions?|matches|is|about|with)\b/i;

/** One clause → alternative conditions (any may match); undefined when not understood. */
function parseClause(p: string): Condition[] | undefined {
  const q = quoted(p);
  const subjectTitle = /^\s*(the\s+)?title\b/i.test(p);
  if (/\btag(ged|s)?\b/i.test(p)) {
    const tags = [...p.matchAll(/#([\p{L}\p{N}_/-]+)/gu)].map((m) => m[1] ?? '').concat(q);
    return tags.length ? tags.map((t) => ({ kind: 'tag' as const, tag: t.toLowerCase() })) : undefined;
  }
  const format = formatOf(p);
  if (format) return [{ kind: 'format', pattern: format }];
  if (/\b(structure|format)\b/i.test(p) && /\(([^)]+)\)/.test(p)) {
    // "Content matches recipe structure (ingredients + instructions)": every listed word appears.
    const words = (/\(([^)]+)\)/.exec(p)?.[1] ?? '').split(/[+,&/]|\band\b/).map((w) => w.trim().toLowerCase()).filter(Boolean);
    return [{ kind: 'mentions', words }];
  }
  if (q.length) return q.map((text) => (subjectTitle ? { kind: 'title_contains' as const, text } : { kind: 'content_contains' as const, text }));
  // A list of cues ("receipt, order confirmation or invoice from a supplier (A, B, C…) with an amount"): any two of them.
  if (/\([^)]*,[^)]*\)/.test(p) || (p.match(/,/g)?.length ?? 0) >= 2) {
    const phrases = cuePhrases(p.replace(/^\s*(?:the\s+)?(?:title|content|body|text|note|it)\s+(?:contains?|has|have|includes?|mentions?|is)\b/i, ' '));
    if (phrases.length >= 3) return [{ kind: 'cues', phrases, need: 2 }];
  }
  if (VERB.test(p)) {
    const words = keywords(p.replace(VERB, ' ').replace(/\b(content|body|text|title|note)\b/gi, ' '));
    return words.length ? [{ kind: 'mentions', words }] : undefined;
  }
  return undefined;
}

/** A phrase's words, one list per reading of its slashes ("Puglia bookings/confirmations" → puglia bookings | puglia confirmations). */
function slashReadings(phrase: string): string[][] {
  let out: string[][] = [[]];
  for (const tok of phrase.split(/\s+/).filter(Boolean)) {
    const alts = tok.includes('/') && !/^[`'"]|\/$/.test(tok) ? tok.split('/').filter(Boolean) : [tok];
    out = out.flatMap((ws) => alts.map((a) => [...ws, ...keywords(a)]));
  }
  return out.filter((ws) => ws.length);
}

/** A list written by a person ("A, B or C (D, E…)") → its phrases, each as the words it needs. */
export function cuePhrases(text: string): string[][] {
  const seen = new Set<string>();
  return text
    .replace(/\.{2,}|…/g, ' ')
    .split(/[,;()]|\s+(?:or|and\/or)\s+|\s+[—–]\s+|\s-\s/i)
    .flatMap((x) => slashReadings(x))
    .filter((ws) => {
      const k = ws.join(' ');
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

/**
 * A reference format shown by examples ("a planning reference in the format `YYYY/NNNN/TYPE` (e.g.
 * `2026/0142/FUL`)") → a regular expression: digits as digits, capitals as capitals, any of / . _ -
 * between them. Undefined when the clause gives no example with digits.
 */
function formatOf(p: string): string | undefined {
  if (!/\b(format|e\.g\.|like|such as|reference|ref|number)\b/i.test(p)) return undefined;
  const examples = [...p.matchAll(/[`"“']([^`"“”']+)[`"”']/g)].map((m) => (m[1] ?? '').trim()).filter((x) => /\d/.test(x) && /^[\p{L}\p{N}/._-]{4,}$/u.test(x) && /[/._-]/.test(x));
  if (!examples.length) return undefined;
  const shapes = new Set(
    examples.map((x) =>
      x
        .split(/([/._-])/)
        .map((part, i) => (i % 2 ? '[/._-]' : part.replace(/\d+/g, (d) => `\\d{${d.length}}`).replace(/\p{Lu}+/gu, '\\p{Lu}+')))
        .join(''),
    ),
  );
  return `(?:^|[^\\p{L}\\p{N}])(?:${[...shapes].join('|')})(?![\\p{L}\\p{N}])`;
}

/** 'Title contains "meeting" or content has "## Attendees"' → alternatives of conjunctions; undefined when not understood. */
export function parsePattern(pattern: string): Condition[][] | undefined {
  // "title or content mentions X" — content matching already includes the title.
  const p = pattern.replace(/\btitle\s+(?:and\/)?or\s+(content|body|text)\b/gi, 'content').replace(/\b(content|body|text)\s+or\s+title\b/gi, 'content');
  const SUBJECT = '(?=(?:the\\s+)?(?:title|content|body|text|note|tags?|it)\\b)';
  const groups: Condition[][] = [];
  for (const orPart of p.split(new RegExp(`\\s+or\\s+${SUBJECT}`, 'i'))) {
    let alts: Condition[][] = [[]];
    for (const andPart of orPart.split(new RegExp(`\\s+and\\s+${SUBJECT}`, 'i'))) {
      const c = parseClause(andPart.trim());
      if (!c) return undefined;
      alts = alts.flatMap((conj) => c.map((x) => [...conj, x]));
    }
    groups.push(...alts.filter((g) => g.length));
  }
  return groups.length ? groups : undefined;
}

const ARROW = /^(.+?)\s*(?:→|->|=>|⇒)\s*(.+)$/;
const GOES = /^(.+?)\s+(?:goes?|go|belongs?|should go|gets? filed|is filed)\s+(?:to|in|into|under)\s+(\S+)\s*$/i;
const FILE_UNDER = /^(?:file|put|save|move)\s+(.+?)\s+(?:to|in|into|under)\s+(\S+)\s*$/i;

function looksLikeFolder(s: string): boolean {
  const f = cleanFolder(s);
  return /^[\p{L}\p{N}_ .-]+(\/[\p{L}\p{N}_ .{}-]+)*\/?(\.md)?$/u.test(f) && (f.includes('/') || /^[a-z0-9_-]+$/.test(f));
}

/** The folder a loose rule names: the whole destination, else its first `backticked` folder, else its first word ("`council/casework/` (and a line in his log)"). */
function destinationOf(dest: string): string | undefined {
  if (looksLikeFolder(dest)) return cleanFolder(dest);
  const tick = [...dest.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '').find(looksLikeFolder);
  if (tick) return cleanFolder(tick);
  const first = dest.trim().split(/\s+/)[0] ?? '';
  return first.includes('/') && looksLikeFolder(first) ? cleanFolder(first) : undefined;
}

/** "His emails/complaints → …": the subject is whoever the bullet's previous sentence named. */
const PRONOUN_SUBJECT = /^(?:his|her|hers|their|its|them|him|they|he|she)\b/i;

/**
 * A loose rule's subject → the phrases that make it match (any one, each needing all its words)
 * and the things listed after it ("anything about Pickle — vet, meds, boots": Pickle matches,
 * the listed things are partial evidence). A list with no subject ("Larchwood, Auntie B, LPA
 * stuff") is all alternatives.
 */
function subjectPhrases(subject: string, referent: string[][]): { head: string[][]; also: string[][] } {
  if (PRONOUN_SUBJECT.test(subject.trim()) && referent.length) return { head: referent, also: [] };
  const q = quoted(subject);
  if (q.length) return { head: q.map(keywords).filter((ws) => ws.length), also: [] };
  const [h = '', ...rest] = subject.split(/\s+[—–]\s+|\s-\s|:\s+/);
  const head = cuePhrases(h);
  const also = cuePhrases(rest.join(', '));
  return head.length ? { head, also } : { head: also, also: [] };
}

/** '"Jadey"/"JW" = Jade', '"the Colonel" = Reg Fairbrother', 'PN means Priya' → aliases; the phrases naming the person, or undefined. */
function parseAlias(t: string, out: Rules): string[][] | undefined {
  const m = /\s+(?:means|refers to|stands for|is short for|is)\s+|\s*=\s*/i.exec(t);
  if (!m) return undefined;
  const left = t.slice(0, m.index).trim();
  const long = t.slice(m.index + m[0].length).trim().replace(/\.$/, '').replace(/^["“'‘`]|["”'’`]$/g, '').trim();
  const q = quoted(left);
  const bare = left.replace(/(?<![\p{L}\p{N}])["“”'‘’`][^"“”'‘’`]+["“”'‘’`](?![\p{L}\p{N}])/gu, ' ').replace(/[/,]|\bor\b/gi, ' ').trim();
  const shorts = q.length && !bare ? q : !q.length && left.split(/\s+/).length <= 4 ? [left] : [];
  if (!shorts.length || !long || long.split(/\s+/).length > 5 || /[→>:]/.test(long)) return undefined;
  for (const x of shorts) out.aliases.set(normName(x), long);
  return [...shorts, long].map(keywords).filter((ws) => ws.length);
}

/** One statement of a loose bullet: a rule (→ []), an alias (→ the phrases naming who it means), or undefined. */
function parseStatement(t: string, out: Rules, referent: string[][]): string[][] | undefined {
  const m = ARROW.exec(t) ?? GOES.exec(t) ?? FILE_UNDER.exec(t);
  const [, subject = '', dest0 = ''] = m ?? [];
  const dest = m ? destinationOf(dest0) : undefined;
  if (dest) {
    const { head, also } = subjectPhrases(subject, referent);
    if (!head.length) return undefined;
    out.rules.push({
      name: t.length > 60 ? `${t.slice(0, 59)}…` : t,
      // "Anything about X", or one of several listed things ("Larchwood, Auntie B, her care"): what the item is about, not a passing mention.
      anyOf: head.map((words) => [{ kind: 'mentions' as const, words, ...(head.length > 1 || /\babout\b/i.test(subject) ? { about: true } : {}) }]),
      destination: dest,
      source: 'bullet',
      ...(also.length ? { also } : {}),
    });
    return [];
  }
  return parseAlias(t, out);
}

/**
 * A loose bullet → rules and aliases. A bullet may hold several statements ('"Gid" = Gideon Bone.
 * "Jadey"/"JW" = Jade.'), and a statement may refer to the one before ('"the Colonel" = Reg.
 * His emails → council/casework/'). Statements it cannot read are returned in `unparsed` when
 * others in the bullet were read; false when none was.
 */
export function parseLooseBullet(text: string, out: Rules): boolean {
  const t = text.replace(/\*\*/g, '').trim();
  const sentences = t.split(/(?<=[.!?])\s+(?=["“'‘`\p{Lu}])/u);
  if (sentences.length < 2) return !!parseStatement(t, out, []);
  let referent: string[][] = [];
  const missed: string[] = [];
  let any = false;
  for (const s of sentences) {
    const r = parseStatement(s.trim(), out, referent);
    if (!r) {
      missed.push(s.trim());
      continue;
    }
    any = true;
    if (r.length) referent = r;
  }
  if (any) out.unparsed.push(...missed);
  return any || !!parseStatement(t, out, []);
}

interface Section {
  level: number;
  heading: string;
  lines: string[];
}

function sections(md: string): Section[] {
  const out: Section[] = [{ level: 0, heading: '', lines: [] }];
  let fence = false;
  for (const line of md.split(/\r?\n/)) {
    if (/^\s*```/.test(line)) fence = !fence;
    const h = fence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (h) out.push({ level: (h[1] ?? '').length, heading: (h[2] ?? '').trim(), lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

const bullets = (lines: string[]) => lines.map((l) => /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(l)?.[1]?.trim()).filter((x): x is string => !!x);

function field(items: string[], name: string): string | undefined {
  const re = new RegExp(`^\\*{0,2}${name}\\*{0,2}\\s*:\\s*\\*{0,2}\\s*(.+)$`, 'i');
  for (const b of items) {
    const m = re.exec(b);
    if (m) return m[1]?.trim();
  }
  return undefined;
}

/**
 * One Folder Structure line → folders and what they hold. "`money/tax` — receipts", "reading-circle/:
 * book group", "**dad/** - Dad's care"; several folders on a line ("`suppliers/`, `selling/` (Etsy,
 * fairs)") each get the words that follow them; folders named inside a description ("`council/` —
 * town council: `planning/`, `casework/` (residents' issues)") are its subfolders.
 */
function folderLine(b: string): Array<[string, string]> {
  const lead = /^(?:[*_]{0,2}`[^`]+`[*_]{0,2}\s*(?:,|&|\band\b)?\s*)+/.exec(b)?.[0];
  let entries: Array<[string, string]> = [];
  let rest = '';
  if (lead) {
    const dirs = [...lead.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
    rest = b.slice(lead.length).replace(/^\s*(?:—|–|-|:|=>|→)\s*/, '').trim();
    entries = dirs.map((d, i) => [d, i === dirs.length - 1 || !/^\(/.test(rest) ? rest : '']);
  } else {
    const m = /^[*_]{0,2}([^\s`*:—–]+?\/?)[*_]{0,2}\s*(?:—|–|\s-|:|=>|→)\s*(.+)$/.exec(b);
    if (m) entries = [[m[1] ?? '', (m[2] ?? '').trim()]];
    rest = m?.[2] ?? '';
  }
  entries = entries.filter(([d]) => looksLikeFolder(d)).map(([d, w]) => [cleanFolder(d).replace(/\/$/, ''), w]);
  const last = entries.at(-1)?.[0];
  if (!last) return [];
  // Subfolders named in the description, each with the words up to the next one.
  const inner = [...rest.matchAll(/`([^`]+)`([^`]*)/g)].filter((m) => looksLikeFolder(m[1] ?? ''));
  for (const m of inner) {
    const d = cleanFolder(m[1] ?? '').replace(/\/$/, '');
    const words = (m[2] ?? '').replace(/^[\s,;:—–-]+|[\s,;]+$/g, '').replace(/^\(|\)$/g, '').replace(/^(?:for|is|are|—)\s+/i, '');
    entries.push([d.startsWith(last + '/') || d.includes('/') ? d : `${last}/${d}`, /`/.test(words) ? '' : words]);
  }
  return entries.map(([d, w]) => [d, w.replace(/`[^`]*`/g, ' ').replace(/\s+/g, ' ').trim()]);
}

/** The Folder Structure section: one folder per line, indented lines being subfolders of the line above. */
function folderStructure(lines: string[], out: Rules): void {
  const stack: Array<{ indent: number; folder: string }> = [];
  for (const line of lines) {
    const m = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line.replace(/\t/g, '    '));
    if (!m) continue;
    const indent = (m[1] ?? '').length;
    const b = (m[2] ?? '').trim();
    while (stack.length && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    const parent = stack.at(-1)?.folder;
    const entries = folderLine(b);
    if (!entries.length) {
      out.unparsed.push(b);
      continue;
    }
    for (const [d, what] of entries) {
      const full = parent && !d.startsWith(parent + '/') ? `${parent}/${d}` : d;
      // A folder listed twice keeps both descriptions.
      const had = out.folders.get(full);
      out.folders.set(full, had && what && had !== what ? `${had}; ${what}` : what || had || '');
    }
    stack.push({ indent, folder: (() => {
      const [d = ''] = entries[0] ?? [];
      return parent && !d.startsWith(parent + '/') ? `${parent}/${d}` : d;
    })() });
  }
}

export function parseRules(md: string): Rules {
  const out: Rules = { ...defaultRules(), loaded: true, threshold: 0.7 };
  for (const s of sections(md)) {
    const items = bullets(s.lines);
    const head = s.heading.toLowerCase();
    const pattern = field(items, 'Pattern');
    const dest = field(items, 'Destination');
    if (pattern !== undefined || dest !== undefined) {
      const anyOf = pattern ? parsePattern(pattern) : undefined;
      const transform = field(items, 'Transform');
      if (anyOf && dest) {
        out.rules.push({ name: s.heading, anyOf, destination: adrDestination(dest), transform, source: 'adr' });
        if (transform) out.unparsed.push(`${s.heading} — Transform: ${transform} (not applied by the server; apply it when filing)`);
      } else {
        out.unparsed.push(`${s.heading} — ${items.join('; ')}`);
      }
      continue;
    }
    if (head.startsWith('default behavio')) {
      for (const b of items) {
        const th = /threshold\D*?(0?\.\d+|1(?:\.0+)?)/i.exec(b);
        if (th) out.threshold = Number(th[1]);
        else if (/(no matching rule|below( the)? threshold)/i.test(b) && /keep/i.test(b)) out.noMatch = 'keep';
        else out.unparsed.push(b);
      }
      continue;
    }
    if (head.startsWith('folder structure') || head === 'folders') {
      folderStructure(s.lines, out);
      continue;
    }
    for (const b of items) {
      if (!parseLooseBullet(b, out)) out.unparsed.push(b);
    }
  }
  return out;
}

export interface RuleSubject {
  title: string;
  body: string;
  tags: string[];
}

/** A light stemmer (swimming → swim, meetings → meeting, planned → plan) so rules match word forms. */
export function stem(w: string): string {
  let s = w.toLowerCase();
  if (s.length > 4 && s.endsWith('ies')) s = s.slice(0, -3) + 'y';
  else if (s.length > 3 && s.endsWith('s') && !s.endsWith('ss')) s = s.slice(0, -1);
  for (const suf of ['ing', 'ed']) {
    if (s.length > suf.length + 2 && s.endsWith(suf)) {
      s = s.slice(0, -suf.length);
      if (/([b-df-hj-np-tv-z])\1$/.test(s)) s = s.slice(0, -1);
      break;
    }
  }
  return s;
}

function wordsIn(text: string): Set<string> {
  return new Set(text.toLowerCase().replace(/['’]s\b/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean));
}

function wordTest(item: RuleSubject, aliases: Map<string, string>) {
  const all = `${item.title}\n${item.body}`;
  const lower = all.toLowerCase();
  const words = wordsIn(all);
  for (const [alias, canonical] of aliases) if (words.has(alias)) for (const w of wordsIn(canonical)) words.add(w);
  const stems = new Set([...words].map(stem));
  return { lower, has: (w: string) => words.has(w) || stems.has(stem(w)) };
}

/**
 * How much of a several-word loose rule an item mentions when it does not mention all of it
 * ("receipts for the business → money/tax" and an item about a receipt): 0 when the rule is not
 * a word rule, mentions none of it, or mentions all of it (then it matches).
 */
export function partialMention(rule: Rule, item: RuleSubject, aliases: Map<string, string>): number {
  // One of the things listed after the subject ("anything about Pickle — vet, meds, boots").
  if (rule.also?.length) {
    const { has } = wordTest(item, aliases);
    if (rule.also.some((ws) => ws.every((w) => has(w)))) return 0.5;
  }
  if (rule.anyOf.length !== 1 || rule.anyOf[0]?.length !== 1) return 0;
  const c = rule.anyOf[0][0];
  if (c?.kind !== 'mentions' || c.words.length < 2) return 0;
  const { lower, has } = wordTest(item, aliases);
  const n = c.words.filter((w) => (w.includes(' ') ? lower.includes(w) : has(w))).length;
  return n < c.words.length ? n / c.words.length : 0;
}

/**
 * The item is about these words, not just mentioning them in passing: one is in its title or
 * its opening (first 25 words), or one is used at least twice.
 */
function isAbout(item: RuleSubject, words: string[]): boolean {
  const stems = new Set(words.map(stem));
  const toks = (t: string) => t.toLowerCase().replace(/['’]s\b/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(stem);
  if (toks(item.title).some((w) => stems.has(w))) return true;
  const body = toks(item.body);
  if (body.slice(0, 25).some((w) => stems.has(w))) return true;
  return body.filter((w) => stems.has(w)).length >= 2;
}

/** Conditions are case-insensitive; `mentions` matches whole words (and simple plurals). */
export function ruleMatches(rule: Rule, item: RuleSubject, aliases: Map<string, string>): boolean {
  const { lower, has } = wordTest(item, aliases);
  return rule.anyOf.some((conj) =>
    conj.every((c) => {
      switch (c.kind) {
        case 'title_contains':
          return item.title.toLowerCase().includes(c.text.toLowerCase());
        case 'content_contains': {
          const t = c.text.toLowerCase();
          // Whole words for plain words ("retro" must not match "metro"); substrings for markup like "## Attendees".
          return /^[\p{L}\p{N}]/u.test(t) ? new RegExp(`(^|[^\\p{L}\\p{N}])${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(lower) : lower.includes(t);
        }
        case 'tag':
          return item.tags.includes(c.tag);
        case 'mentions':
          return c.words.every((w) => (w.includes(' ') ? lower.includes(w) : has(w))) && (!c.about || isAbout(item, c.words));
        case 'cues':
          return c.phrases.filter((ws) => ws.every((w) => has(w))).length >= c.need;
        case 'format':
          return new RegExp(c.pattern, 'u').test(`${item.title}\n${item.body}`);
      }
    }),
  );
}

/**
 * Appends a loose-bullet rule line to the rules file's text: at the end of the first section
 * whose heading names loose rules ("Loose rules", "Other rules", "Misc"), or under a new
 * `## Loose rules` section at the end. The file stays plain markdown the person can edit.
 */
export function appendLooseRule(md: string, line: string): string {
  const bullet = line.startsWith('- ') ? line : `- ${line}`;
  if (!md.trim()) return `# Inbox Processing Rules\n\n## Loose rules\n${bullet}\n`;
  const lines = md.replace(/\s+$/, '').split(/\r?\n/);
  let fence = false;
  let start = -1;
  let level = 0;
  for (const [i, line] of lines.entries()) {
    if (/^\s*```/.test(line)) fence = !fence;
    const h = fence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const [, hashes = '', heading = ''] = h;
    if (start >= 0 && hashes.length <= level) {
      // End of the loose section: insert after its last non-empty line.
      let j = i;
      while (j > start + 1 && !lines[j - 1]?.trim()) j--;
      lines.splice(j, 0, bullet);
      return lines.join('\n') + '\n';
    }
    if (start < 0 && /\b(loose|other|misc|more)\b.*\brules?\b|^rules?$|^misc/i.test(heading)) {
      start = i;
      level = hashes.length;
    }
  }
  if (start >= 0) return [...lines, bullet].join('\n') + '\n';
  return [...lines, '', '## Loose rules', bullet].join('\n') + '\n';
}
