import yaml from 'js-yaml';
import type { JsonObject } from '../../kernel/types';

export interface ParsedNote {
  title: string;
  frontmatter: JsonObject;
  /** True when a frontmatter block was present but was not valid YAML (kept as body text). */
  frontmatterError?: string;
  aliases: string[];
  tags: string[];
  /** Wikilink targets (`[[target|label]]` → `target`, without `#heading`). */
  links: string[];
  /** Markdown body after the frontmatter. */
  body: string;
}

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const WIKILINK = /!?\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
// `#tag` at a word start, not a heading (`# `), not inside a URL fragment; Obsidian allows / and -.
const HASHTAG = /(^|[\s(])#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu;

function strings(v: unknown): string[] {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' || typeof x === 'number' ? [String(x).trim()] : [])).filter(Boolean);
  return [];
}

/**
 * The one YAML dialect for everything Mailroom reads from or writes to the vault: js-yaml with
 * the YAML 1.2 core schema (no custom types; dates stay strings). Throws on invalid YAML.
 */
export function parseYaml(text: string): unknown {
  return yaml.load(text, { schema: yaml.CORE_SCHEMA });
}

/** YAML text for a frontmatter block or a config file (no line folding, no anchors). */
export function stringifyYaml(value: unknown): string {
  return yaml.dump(value, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true });
}

/** Splits frontmatter from body with a real YAML parser; invalid YAML never throws. */
export function splitFrontmatter(text: string): { frontmatter: JsonObject; body: string; error?: string } {
  const m = FRONTMATTER.exec(text);
  if (!m) return { frontmatter: {}, body: text.replace(/^\uFEFF/, '') };
  try {
    // js-yaml's core schema: real YAML, no custom types, dates stay strings; ~6× faster than `yaml` on cold index.
    const data: unknown = parseYaml(m[1] ?? ''); // group 1 always takes part
    const fm = data && typeof data === 'object' && !Array.isArray(data) ? (data as JsonObject) : {};
    // Dates become Date objects in some schemas; keep JSON-able values only.
    return { frontmatter: JSON.parse(JSON.stringify(fm)) as JsonObject, body: text.slice(m[0].length) };
  } catch (e) {
    return { frontmatter: {}, body: text, error: (e as Error).message.split('\n')[0] };
  }
}

/** The body after a frontmatter block, without parsing the YAML (snippets need only the text). */
export function bodyOf(text: string): string {
  const m = FRONTMATTER.exec(text);
  return m ? text.slice(m[0].length) : text.replace(/^\uFEFF/, '');
}

function stripCode(body: string): string {
  return body.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
}

export function fileStem(rel: string): string {
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  return base.replace(/\.md$/i, '');
}

/** Parses a note once: frontmatter, title, aliases, tags, wikilinks, body. */
export function parseNote(rel: string, text: string): ParsedNote {
  const { frontmatter, body, error } = splitFrontmatter(text);
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body);
  const fmTitle = typeof frontmatter.title === 'string' && frontmatter.title.trim() ? frontmatter.title.trim() : undefined;
  const title = fmTitle ?? heading?.[1]?.trim() ?? fileStem(rel);
  const aliases = [...new Set([...strings(frontmatter.aliases), ...strings(frontmatter.alias)])];
  const plain = stripCode(body);
  const tags = new Set(strings(frontmatter.tags).concat(strings(frontmatter.tag)).map((t) => t.replace(/^#/, '').toLowerCase()));
  for (const [, , tag = ''] of plain.matchAll(HASHTAG)) if (!/^\d+$/.test(tag)) tags.add(tag.toLowerCase());
  const links = new Set<string>();
  for (const [, target = ''] of plain.matchAll(WIKILINK)) links.add(target.trim());
  return { title, frontmatter, frontmatterError: error, aliases, tags: [...tags], links: [...links], body };
}

/** Plain text for search: markdown punctuation and link syntax reduced to words. */
export function searchableText(body: string): string {
  return body
    .replace(/!?\[\[([^\]|]+)\|([^\]]+)\]\]/g, '$1 $2')
    .replace(/!?\[\[([^\]]+)\]\]/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_>`~]+/g, ' ');
}

const NOT_NAMES = new Set(
  'the a an this that these those there then it its i we you he she they my our your his her their me us him them what when where who why how if and or but so yes no ok hi hello dear thanks thank please note notes todo to do re fwd fw monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december today tomorrow yesterday also just after before during for from with without about into on in at by of as is are was were be been will would can could should must let here some any all each every one two three new next last first'.split(
    ' ',
  ),
);

/**
 * Capitalised phrases ("Priya Nair", "Project Atlas"), quoted terms and acronyms (PN, Q1 OKRs):
 * cheap mentions for the entity-occurrence index. Words that only start a sentence and common
 * function words are dropped.
 */
export function capitalizedPhrases(text: string, max = 40): string[] {
  const out = new Map<string, string>();
  const re = /\b(?:[A-Z][\p{L}'’]*[\p{L}]|[A-Z]{2,}\d*|[A-Z]\d+)(?:[ \t]+(?:(?:of|de|van|von|la|le|the)[ \t]+)?(?:[A-Z][\p{L}'’]*[\p{L}]|[A-Z]{2,}\d*|[A-Z]\d+|\d{1,4}))*/gu;
  for (const m of text.matchAll(re)) {
    // A lone capitalised word that starts a sentence, line or list item is usually just a word.
    const before = text.slice(Math.max(0, m.index - 4), m.index);
    if (!/\s/.test(m[0].trim()) && !/^[A-Z0-9]{2,}$/.test(m[0]) && (m.index === 0 || /(^|[.!?:\n]\s*|[-*+>#]\s+|\n\s*)$/.test(before))) continue;
    let phrase = m[0].replace(/['’]s$/u, '').replace(/\s+(?:of|de|van|von|la|le|the)$/i, '').trim();
    const words = phrase.split(/\s+/);
    while (words[0] !== undefined && NOT_NAMES.has(words[0].toLowerCase())) words.shift();
    phrase = words.join(' ');
    if (!phrase || phrase.length < 2 || NOT_NAMES.has(phrase.toLowerCase())) continue;
    const key = phrase.toLowerCase();
    if (!out.has(key)) out.set(key, phrase);
    if (out.size >= max) break;
  }
  return [...out.values()];
}

/** Case- and accent-insensitive key for names, aliases and entity mentions. */
export function normName(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
