import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import matter from 'gray-matter';
import { MailroomError, invalidArgument } from '../common/errors';
import { DEFAULT_POLICIES, DEFAULT_SCHEMAS, DEFAULT_TAXONOMIES } from './defaults/index';

export const MAIL_CONFIG_DIR = path.join('_brain_config', 'mail');

export interface TaxonomyIntent {
  id: string;
  description: string;
  examples: string[];
  route?: string;
  urgency?: 'low' | 'medium' | 'high';
}

export interface Taxonomy {
  id: string;
  name: string;
  intents: TaxonomyIntent[];
  urgency: { high: string[]; low: string[] };
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
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function checkId(kind: string, id: string): void {
  // Ids become file names; anything else could leave the config folder.
  if (!ID_RE.test(id) || id.includes('..')) throw invalidArgument(`${kind} id '${id}' must be letters, digits, '_', '-', '.' (no paths).`);
}

const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** Reads the user-editable mail config files from the vault, with built-in defaults as fallback. */
export class MailConfigFiles {
  constructor(private readonly vaultDir: string) {}

  private dir(kind: 'taxonomies' | 'schemas' | 'policies') {
    return path.join(this.vaultDir, MAIL_CONFIG_DIR, kind);
  }

  private read(kind: 'taxonomies' | 'schemas' | 'policies', id: string, exts: string[], defaults: Record<string, string>): { text: string; file: string } | undefined {
    for (const ext of exts) {
      const file = path.join(this.dir(kind), id + ext);
      if (fs.existsSync(file)) return { text: fs.readFileSync(file, 'utf8'), file };
    }
    return defaults[id] !== undefined ? { text: defaults[id], file: `(built-in ${kind}/${id})` } : undefined;
  }

  private ids(kind: 'taxonomies' | 'schemas' | 'policies', exts: string[], defaults: Record<string, string>): string[] {
    const d = this.dir(kind);
    const mine = fs.existsSync(d) ? fs.readdirSync(d).filter((f) => exts.some((e) => f.endsWith(e))).map((f) => f.replace(/\.[^.]+$/, '')) : [];
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
      doc = (YAML.parse(found.text) ?? {}) as Record<string, unknown>;
    } catch (e) {
      throw new MailroomError('invalid_config', `${found.file} is not valid YAML: ${(e as Error).message}`, { file: found.file });
    }
    const intents = (Array.isArray(doc.intents) ? doc.intents : []).flatMap((raw: unknown): TaxonomyIntent[] => {
      if (!raw || typeof raw !== 'object') return [];
      const r = raw as Record<string, unknown>;
      const iid = typeof r.id === 'string' ? r.id : typeof r.name === 'string' ? r.name : undefined;
      if (!iid) return [];
      const u = r.urgency;
      return [
        {
          id: iid,
          description: typeof r.description === 'string' ? r.description : '',
          examples: strList(r.examples),
          route: typeof r.route === 'string' ? r.route : undefined,
          urgency: u === 'low' || u === 'medium' || u === 'high' ? u : undefined,
        },
      ];
    });
    if (intents.length === 0) throw new MailroomError('invalid_config', `${found.file} has no intents; add a list "intents:" with id, description and examples.`, { file: found.file });
    const urg = (doc.urgency ?? {}) as Record<string, unknown>;
    return { id, name: typeof doc.name === 'string' ? doc.name : id, intents, urgency: { high: strList(urg.high), low: strList(urg.low) } };
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
      throw new MailroomError('invalid_config', `${found.file} is not a usable JSON Schema: ${(e as Error).message}`, { file: found.file });
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
      const parsed = matter(found.text);
      fm = parsed.data as Record<string, unknown>;
      body = parsed.content;
    } catch (e) {
      throw new MailroomError('invalid_config', `${found.file} has invalid front matter: ${(e as Error).message}`, { file: found.file });
    }
    const approval = fm.approval === 'always' || fm.approval === 'never' ? fm.approval : 'risky';
    return {
      id,
      tone: typeof fm.tone === 'string' ? fm.tone : 'friendly',
      signature: typeof fm.signature === 'string' ? fm.signature.trim() : '',
      maxWords: typeof fm.max_words === 'number' && fm.max_words > 0 ? fm.max_words : 250,
      approval,
      must: strList(fm.must),
      mustNot: strList(fm.must_not),
      internalDomains: strList(fm.internal_domains).map((d) => d.toLowerCase()),
      guidance: body.trim(),
    };
  }

  /** Writes the built-in files into the vault (never overwriting), so the user can edit them. */
  installDefaults(): string[] {
    const written: string[] = [];
    const put = (kind: 'taxonomies' | 'schemas' | 'policies', name: string, text: string) => {
      const file = path.join(this.dir(kind), name);
      if (fs.existsSync(file)) return;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file + '.tmp', text);
      fs.renameSync(file + '.tmp', file);
      written.push(path.relative(this.vaultDir, file));
    };
    for (const [id, t] of Object.entries(DEFAULT_TAXONOMIES)) put('taxonomies', `${id}.yaml`, t);
    for (const [id, t] of Object.entries(DEFAULT_SCHEMAS)) put('schemas', `${id}.json`, t + '\n');
    for (const [id, t] of Object.entries(DEFAULT_POLICIES)) put('policies', `${id}.md`, t);
    return written;
  }
}
