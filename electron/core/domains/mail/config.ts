import fs from 'node:fs';
import path from 'node:path';
import { MailroomError, invalidArgument } from '../../kernel/errors';
import { writeFileAtomic } from '../../kernel/fs';
import { listVaultFiles, parseYaml, readVaultFile, resolveVaultPath, splitFrontmatter } from '../vault';
import { DEFAULT_POLICIES, DEFAULT_SCHEMAS, DEFAULT_TAXONOMIES } from './defaults/index';

export const MAIL_CONFIG_DIR = path.join('_brain_config', 'mail');

export interface TaxonomyIntent {
  id: string;
  description: string;
  examples: string[];
  route?: string;
  urgency?: 'low' | 'medium' | 'high';
}

export type Level = 'low' | 'medium' | 'high';
export type Tone = 'negative' | 'neutral' | 'positive';

export interface Taxonomy {
  id: string;
  name: string;
  intents: TaxonomyIntent[];
  /** Intent ids in the order that wins a tie (earlier first); intents not listed come after. */
  precedence: string[];
  /** Cue words per level, and each level's definition in prose ("high: needs my attention within hours — …"). */
  urgency: { high: string[]; low: string[]; medium: string[]; prose: Partial<Record<Level, string>> };
  sentiment: { cues: Partial<Record<Tone, string[]>>; prose: Partial<Record<Tone, string>> };
}

export interface Policy {
  id: string;
  tone: string;
  signature: string;
  maxWords: number;
  approval: 'always' | 'risky' | 'never';
  must: string[];
  mustNot: string[];
  internalDomains: string[];
  guidance: string;
  /** Rules written as prose in the body ("Never promise dates …"), kept for the LLM and shown to people. */
  rules: { must: string[]; mustNot: string[] };
  /** The policy forbids replying to automated senders (noreply, notifications, bulk mail). */
  refuseAutomated: boolean;
  /** The policy forbids committing to dates / money without approval. */
  noPromises: { dates: boolean; money: boolean };
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function checkId(kind: string, id: string): void {
  // Ids become file names; anything else could leave the config folder.
  if (typeof id !== 'string' || !ID_RE.test(id) || id.includes('..')) throw invalidArgument(`${kind} id '${id}' must be letters, digits, '_', '-', '.' (no paths).`);
}

/**
 * Where a YAML parser stopped (line/column only). Parser messages quote the offending text, and a
 * config file may be anything (a symlink to a secret): errors never echo file contents.
 */
function where(e: unknown): string {
  const x = e as { linePos?: Array<{ line: number; col: number }>; mark?: { line: number; column: number } };
  if (x?.linePos?.[0]) return ` (line ${x.linePos[0].line}, column ${x.linePos[0].col})`;
  if (x?.mark && typeof x.mark.line === 'number') return ` (line ${x.mark.line + 1}, column ${x.mark.column + 1})`;
  return '';
}

const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

const LEVEL_WORDS: Record<string, string> = { urgent: 'high', critical: 'high', normal: 'medium', moderate: 'medium', med: 'medium', mid: 'medium', neg: 'negative', pos: 'positive' };

/** `intents:` as a list of {id, …} or a map keyed by id ({ billing: { description, examples } } or { billing: "description" }). */
export function parseIntents(raw: unknown): TaxonomyIntent[] {
  const entries: Array<[string | undefined, unknown]> = Array.isArray(raw)
    ? raw.map((r) => [undefined, r])
    : raw && typeof raw === 'object'
      ? Object.entries(raw as Record<string, unknown>)
      : [];
  return entries.flatMap(([key, r]): TaxonomyIntent[] => {
    if (typeof r === 'string') {
      if (key) return [{ id: key, description: r, examples: [] }];
      return [{ id: r, description: '', examples: [] }];
    }
    if (!r || typeof r !== 'object') return key ? [{ id: key, description: '', examples: [] }] : [];
    const o = r as Record<string, unknown>;
    const iid = key ?? (typeof o.id === 'string' ? o.id : typeof o.name === 'string' ? o.name : undefined);
    if (!iid) return [];
    const u = typeof o.urgency === 'string' ? (LEVEL_WORDS[o.urgency.toLowerCase()] ?? o.urgency.toLowerCase()) : undefined;
    const desc = [o.description, o.definition, o.summary].filter((x): x is string => typeof x === 'string').join(' ');
    return [
      {
        id: String(iid),
        description: desc,
        examples: [...strList(o.examples), ...strList(o.example), ...strList(o.keywords), ...strList(o.cues)],
        route: typeof o.route === 'string' ? o.route : undefined,
        urgency: u === 'low' || u === 'medium' || u === 'high' ? u : undefined,
      },
    ];
  });
}

/**
 * Levels (urgency or sentiment) given as cue-word lists (`high: [urgent, asap]`), as prose
 * (`high: "needs my attention within hours — …"`), as objects (`high: {description, examples}`),
 * or as a list of `{level|id|name, description}`.
 */
function parseLevels<L extends string>(raw: unknown, levels: readonly L[]): Record<L, string[]> & { prose: Partial<Record<L, string>> } {
  const out = Object.fromEntries(levels.map((l) => [l, [] as string[]])) as Record<L, string[]>;
  const prose: Partial<Record<L, string>> = {};
  const norm = (k: string): L | undefined => {
    const x = k.toLowerCase().trim();
    const v = (LEVEL_WORDS[x] ?? x) as L;
    return levels.includes(v) ? v : undefined;
  };
  const put = (k: string, v: unknown) => {
    const l = norm(k);
    if (!l) return;
    if (typeof v === 'string') {
      // A short comma list is cue words; a sentence is a definition.
      if (v.split(/\s+/).length <= 3 || (/,/.test(v) && !/[.;—–:]/.test(v) && v.split(',').every((p) => p.trim().split(/\s+/).length <= 4))) out[l].push(...v.split(',').map((x) => x.trim()).filter(Boolean));
      else prose[l] = [prose[l], v.trim()].filter(Boolean).join(' ');
    } else if (Array.isArray(v)) {
      for (const x of v) {
        if (typeof x !== 'string') continue;
        if (x.split(/\s+/).length > 5) prose[l] = [prose[l], x.trim()].filter(Boolean).join(' ');
        else out[l].push(x);
      }
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const f of ['description', 'definition', 'meaning']) if (typeof o[f] === 'string') prose[l] = [prose[l], (o[f] as string).trim()].filter(Boolean).join(' ');
      for (const f of ['cues', 'keywords', 'words']) out[l].push(...strList(o[f]));
      for (const ex of strList(o.examples)) prose[l] = [prose[l], ex].filter(Boolean).join(' ');
    }
  };
  if (Array.isArray(raw)) {
    for (const r of raw) {
      if (r && typeof r === 'object') {
        const o = r as Record<string, unknown>;
        const k = [o.level, o.id, o.name].find((x): x is string => typeof x === 'string');
        if (k) put(k, o);
      } else if (typeof r === 'string') {
        const m = /^\s*(\w+)\s*[:—–-]\s*(.+)$/.exec(r);
        const [, key = '', text = ''] = m ?? [];
        if (m) put(key, text);
      }
    }
  } else if (typeof raw === 'string') {
    // "high: …\nmedium: …" written as one block of prose
    for (const line of raw.split(/\n|(?<=\.)\s+(?=\w+:)/)) {
      const m = /^\s*[-*]?\s*(\w+)\s*[:—–]\s*(.+)$/.exec(line);
      const [, key = '', text = ''] = m ?? [];
      if (m) put(key, text);
    }
  } else if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    for (const [k, v] of Object.entries(o)) {
      if (k === 'levels' || k === 'definitions') {
        const nested = parseLevels(v, levels);
        for (const l of levels) {
          out[l].push(...nested[l]);
          if (nested.prose[l]) prose[l] = [prose[l], nested.prose[l]].filter(Boolean).join(' ');
        }
      } else put(k, v);
    }
  }
  return Object.assign(out, { prose });
}

const SIG_LEAD = /\b(?:sign(?:ed)?(?:[ -]?off)?(?:\s+(?:all\s+|every\s+|each\s+)?(?:emails?|e-mails?|replies|reply|messages?|drafts?|everything|them|it))?\s+(?:as|with|using)|sign[ -]?off\s*(?:is|=)|(?:end|close|finish)(?:\s+(?:every|each|all|my|the))?(?:\s+(?:emails?|e-mails?|replies|reply|messages?|drafts?))?\s+with)\s*[:\-–]?\s*/gi;

/** The signature a policy asks for: "Sign as **Jordan**", 'Sign off with "Best, Jordan"', "Signature: Jordan". */
export function signatureFrom(text: string): string | undefined {
  const line = /^\s*[-*]?\s*(?:\*\*|__)?(?:signature|sign[ -]?off)(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*(.+)$/im.exec(text)?.[1];
  const tries: string[] = [];
  if (line) tries.push(line);
  SIG_LEAD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SIG_LEAD.exec(text))) tries.push(text.slice(m.index + m[0].length, m.index + m[0].length + 120));
  for (const t of tries) {
    const q = /^(?:\*\*|__)([^*_\n]{1,80})(?:\*\*|__)|^["“'‘`]([^"”'’`]{1,80})["”'’`]|^\*([^*\n]{1,80})\*/.exec(t.trim());
    const v = q ? (q[1] ?? q[2] ?? q[3]) : /^([^.,;!\n(]{1,60})/.exec(t.trim())?.[1];
    const out = v?.replace(/\\n/g, '\n').trim().replace(q ? /[;:]+$/ : /[.;:]+$/, '');
    if (out && !/^(a|an|the|your|my|our)\b/i.test(out) && out.split(/\s+/).length <= 8) return out;
  }
  return undefined;
}

const WORDS_RE = [
  /(\d{2,4})[\s-]*words?\s*(?:max(?:imum)?|at\s+most|or\s+(?:less|fewer)|tops|limit|cap)\b/i,
  /(?:max(?:imum)?|at\s+most|no\s+more\s+than|not\s+more\s+than|no\s+longer\s+than|shorter\s+than|under|below|up\s+to|fewer\s+than|less\s+than|limit(?:ed)?\s+(?:of|to)|within|≤|<=|keep\s+(?:it|them|replies|emails|drafts|answers)\s+(?:to|under|below|within))\s*(?:of\s*|a\s+)?[:]?\s*(\d{2,4})[\s-]*words?/i,
  /(?:length|word\s+limit)\s*[:：]\s*(?:≤|<=|max(?:imum)?\s*)?\s*(\d{2,4})\b/i,
];

/** What a policy written as plain markdown says: signature, length limit, tone, rules, who is external. */
export function parsePolicyProse(body: string): {
  signature?: string;
  maxWords?: number;
  tone?: string;
  approval?: Policy['approval'];
  internalDomains: string[];
  rules: { must: string[]; mustNot: string[] };
  refuseAutomated: boolean;
  noPromises: { dates: boolean; money: boolean };
} {
  const text = body.replace(/\r\n/g, '\n');
  const sig = signatureFrom(text);
  let maxWords: number | undefined;
  for (const re of WORDS_RE) {
    const m = re.exec(text);
    if (m) {
      maxWords = Number(m[1]);
      break;
    }
  }
  // Sentences / bullet items as rules.
  const items = text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z*])/)
    .map((l) => l.replace(/^\s*(?:[-*+•]|\d+[.)])\s*/, '').replace(/^#+\s*/, '').replace(/\*\*|__/g, '').trim())
    .filter((l) => l.length > 3);
  const mustNot = items.filter((l) => /^(never|do not|don't|must not|avoid|no\b)/i.test(l) || /\b(never|must not|do not|don't)\b/i.test(l));
  const must = items.filter((l) => !mustNot.includes(l) && /^(always|must|be|keep|use|sign|include|mention|reply|answer|greet|end|start|thank)\b/i.test(l));
  const toneLine = /^\s*[-*]?\s*(?:\*\*)?tone(?:\*\*)?\s*[:：]\s*(.+)$/im.exec(text)?.[1] ?? items.find((l) => /\b(tone|friendly|formal|warm|concise|polite|plain|direct|casual)\b/i.test(l) && l.split(/\s+/).length <= 25);
  const extLines = items.filter((l) => /\b(external|internal|outside|colleague|team)\b/i.test(l));
  const domains = new Set<string>();
  for (const l of extLines) for (const [, dom = ''] of l.matchAll(/(?:@)?\b((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,})\b/gi)) if (!/\.(md|json|yaml|txt)$/i.test(dom)) domains.add(dom.toLowerCase());
  const automated = items.some((l) => /\b(automated|automatic|no-?reply|do-?not-?reply|notifications?|bots?|mailing lists?|newsletters?|machine)\b/i.test(l) && /\b(never|don't|do not|must not|no)\b[^.]*\b(repl|answer|respond|draft)/i.test(l));
  const noPromise = mustNot.filter((l) => /\b(promise|commit|agree|confirm|offer|guarantee)/i.test(l));
  return {
    signature: sig?.trim().replace(/[.,;:]+$/, '') || undefined,
    maxWords: maxWords && maxWords > 0 ? maxWords : undefined,
    tone: toneLine?.trim(),
    approval: /\b(every|all|each)\b[^.]*\b(draft|repl)[^.]*\b(approv|review)/i.test(text) ? 'always' : undefined,
    internalDomains: [...domains],
    rules: { must, mustNot },
    refuseAutomated: automated,
    noPromises: { dates: noPromise.some((l) => /\b(date|deadline|day|time|when|schedule)/i.test(l)), money: noPromise.some((l) => /\b(money|price|pric|refund|discount|payment|pay|cost|amount|budget|fee|\$|€|£)/i.test(l)) },
  };
}

/** Reads the user-editable mail config files from the vault, with built-in defaults as fallback. */
export class MailConfigFiles {
  constructor(private readonly vaultDir: string) {}

  private dir(kind: 'taxonomies' | 'schemas' | 'policies') {
    return path.join(this.vaultDir, MAIL_CONFIG_DIR, kind);
  }

  private rel(kind: 'taxonomies' | 'schemas' | 'policies', name = '') {
    return path.posix.join('_brain_config', 'mail', kind, name);
  }

  /**
   * A user file under the vault rule (no hidden files, no symlink that leads outside the vault):
   * such a file is refused with path_outside_vault / path_hidden, never read; an absent one falls
   * back to the built-in default.
   */
  private read(kind: 'taxonomies' | 'schemas' | 'policies', id: string, exts: string[], defaults: Record<string, string>): { text: string; file: string } | undefined {
    for (const ext of exts) {
      const rel = this.rel(kind, id + ext);
      try {
        const f = readVaultFile(this.vaultDir, rel, { maxBytes: 1 << 20 });
        return { text: f.data.toString('utf8'), file: path.join(this.dir(kind), id + ext) };
      } catch (e) {
        if (e instanceof MailroomError && e.status === 404) continue;
        throw e;
      }
    }
    return defaults[id] !== undefined ? { text: defaults[id], file: `(built-in ${kind}/${id})` } : undefined;
  }

  private ids(kind: 'taxonomies' | 'schemas' | 'policies', exts: string[], defaults: Record<string, string>): string[] {
    const mine = listVaultFiles(this.vaultDir, this.rel(kind), (r) => exts.some((e) => r.endsWith(e)), 0).map((r) => path.posix.basename(r).replace(/\.[^.]+$/, ''));
    return [...new Set([...mine, ...Object.keys(defaults)])].sort();
  }

  taxonomyIds = () => this.ids('taxonomies', ['.yaml', '.yml'], DEFAULT_TAXONOMIES);
  schemaIds = () => this.ids('schemas', ['.json'], DEFAULT_SCHEMAS);
  policyIds = () => this.ids('policies', ['.md'], DEFAULT_POLICIES);

  taxonomy(id: string): Taxonomy {
    checkId('Taxonomy', id);
    const found = this.read('taxonomies', id, ['.yaml', '.yml'], DEFAULT_TAXONOMIES);
    if (!found) {
      throw new MailroomError('taxonomy_not_found', `No taxonomy '${id}'. Add ${MAIL_CONFIG_DIR}/taxonomies/${id}.yaml to the vault, or use one of: ${this.taxonomyIds().join(', ')}.`, { taxonomy_id: id, available: this.taxonomyIds() }, 404);
    }
    let doc: Record<string, unknown>;
    try {
      doc = (parseYaml(found.text) ?? {}) as Record<string, unknown>;
    } catch (e) {
      throw new MailroomError('invalid_config', `${found.file} is not valid YAML${where(e)}; fix the file or remove it to use the built-in one.`, { file: found.file });
    }
    const intents = parseIntents(doc.intents);
    if (intents.length === 0) throw new MailroomError('invalid_config', `${found.file} has no intents; add "intents:" as a list (- id: …, description: …, examples: […]) or a map (billing: { description: …, examples: […] }).`, { file: found.file });
    const ids = new Set(intents.map((i) => i.id));
    const precedence = strList(doc.precedence ?? doc.priority).filter((p) => ids.has(p));
    return {
      id,
      name: typeof doc.name === 'string' ? doc.name : typeof doc.title === 'string' ? doc.title : id,
      intents,
      precedence,
      urgency: parseLevels(doc.urgency, ['low', 'medium', 'high'] as const) as Taxonomy['urgency'],
      sentiment: (({ prose, ...cues }) => ({ prose, cues }))(parseLevels(doc.sentiment, ['negative', 'neutral', 'positive'] as const)) as unknown as Taxonomy['sentiment'],
    };
  }

  schema(id: string): { schema: Record<string, unknown>; file: string } {
    checkId('Schema', id);
    const found = this.read('schemas', id, ['.json'], DEFAULT_SCHEMAS);
    if (!found) {
      throw new MailroomError('schema_not_found', `No extraction schema '${id}'. Add ${MAIL_CONFIG_DIR}/schemas/${id}.json (a JSON Schema) to the vault, or use one of: ${this.schemaIds().join(', ')}.`, { schema_id: id, available: this.schemaIds() }, 404);
    }
    try {
      const schema = JSON.parse(found.text) as Record<string, unknown>;
      if (!schema || typeof schema !== 'object' || typeof schema.properties !== 'object') throw new Error('it has no "properties"');
      return { schema, file: found.file };
    } catch (e) {
      // JSON.parse messages quote the text they choke on: say why without echoing the file.
      const why = e instanceof SyntaxError ? 'it is not valid JSON' : 'it has no "properties"';
      throw new MailroomError('invalid_config', `${found.file} is not a usable JSON Schema: ${why}.`, { file: found.file });
    }
  }

  policy(id: string): Policy {
    checkId('Policy', id);
    const found = this.read('policies', id, ['.md'], DEFAULT_POLICIES);
    if (!found) {
      throw new MailroomError('policy_not_found', `No reply policy '${id}'. Add ${MAIL_CONFIG_DIR}/policies/${id}.md to the vault, or use one of: ${this.policyIds().join(', ')}.`, { policy_id: id, available: this.policyIds() }, 404);
    }
    let fm: Record<string, unknown>;
    let body: string;
    try {
      const parsed = splitFrontmatter(found.text);
      if (parsed.error) throw new Error(parsed.error);
      fm = parsed.frontmatter;
      body = parsed.body;
    } catch (e) {
      throw new MailroomError('invalid_config', `${found.file} has invalid front matter${where(e)}; fix the YAML between the --- lines.`, { file: found.file });
    }
    const prose = parsePolicyProse(body);
    const approval = fm.approval === 'always' || fm.approval === 'never' || fm.approval === 'risky' ? fm.approval : prose.approval ?? 'risky';
    const maxWords = typeof fm.max_words === 'number' && fm.max_words > 0 ? fm.max_words : prose.maxWords ?? 250;
    return {
      id,
      tone: typeof fm.tone === 'string' ? fm.tone : prose.tone ?? 'friendly',
      signature: typeof fm.signature === 'string' ? fm.signature.trim() : prose.signature ?? '',
      maxWords,
      approval,
      must: strList(fm.must),
      mustNot: strList(fm.must_not),
      internalDomains: [...new Set([...strList(fm.internal_domains), ...prose.internalDomains].map((d) => d.toLowerCase()))],
      guidance: body.trim(),
      rules: prose.rules,
      refuseAutomated: fm.reply_to_automated === false || fm.refuse_automated === true || prose.refuseAutomated,
      noPromises: prose.noPromises,
    };
  }

  /** Writes the built-in files into the vault (never overwriting), so the user can edit them. */
  installDefaults(): string[] {
    const written: string[] = [];
    const put = (kind: 'taxonomies' | 'schemas' | 'policies', name: string, text: string) => {
      // Never through a symlink that leads outside the vault.
      const file = resolveVaultPath(this.vaultDir, this.rel(kind, name));
      if (fs.existsSync(file)) return;
      try {
        writeFileAtomic(file, text, { noReplace: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
        throw e;
      }
      written.push(path.relative(this.vaultDir, file));
    };
    for (const [id, t] of Object.entries(DEFAULT_TAXONOMIES)) put('taxonomies', `${id}.yaml`, t);
    for (const [id, t] of Object.entries(DEFAULT_SCHEMAS)) put('schemas', `${id}.json`, t + '\n');
    for (const [id, t] of Object.entries(DEFAULT_POLICIES)) put('policies', `${id}.md`, t);
    return written;
  }
}
