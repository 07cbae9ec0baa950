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
