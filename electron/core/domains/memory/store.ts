/**
 * Memories are markdown notes in the vault's `memory/` folder: frontmatter (id, entities,
 * tags, strength, created, updated, source) over the remembered text. The store reads them
 * back for search and duplicate checks. Writes go through the vault domain when it is wired
 * (journaled, atomic, git-committed); otherwise through an atomic temp-file + rename here.
 */
import fs from 'node:fs';
import { writeFileAtomic } from '../../kernel/fs';
import path from 'node:path';
import { slug } from '../nlp';
import { listVaultFiles, resolveVaultPath, splitFrontmatter, stringifyYaml, tryReadVaultFile } from '../vault';

export const MEMORY_FOLDER = 'memory';

export interface Memory {
  id: string;
  /** Vault-relative path, `memory/<file>.md`. */
  path: string;
  content: string;
  entities: string[];
  tags: string[];
  strength: number;
  intent?: string;
  source?: string;
  created: string;
  updated: string;
  /** How many times a duplicate save merged into this memory. */
  reinforced: number;
}

/** What the memory store needs from the vault domain (`electron/core/domains/vault`), when it is wired. */
export interface MemoryVault {
  writeNote(relPath: string, text: string, opts: { message: string }): Promise<unknown>;
}

export function renderMemory(m: Memory): string {
  const fm: Record<string, unknown> = {
    id: m.id,
    created: m.created,
    updated: m.updated,
    entities: m.entities,
    tags: m.tags,
    strength: m.strength,
    ...(m.intent ? { intent: m.intent } : {}),
    ...(m.source ? { source: m.source } : {}),
    ...(m.reinforced ? { reinforced: m.reinforced } : {}),
  };
  return `---\n${stringifyYaml(fm).trimEnd()}\n---\n${m.content.trim()}\n`;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function parseMemory(relPath: string, text: string): Memory | undefined {
  const split = splitFrontmatter(text);
  if (split.error) return undefined;
  const parsed = { data: split.frontmatter, content: split.body };
  const d = parsed.data;
  const date = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : '');
  return {
    id: typeof d.id === 'string' ? d.id : path.basename(relPath, '.md'),
    path: relPath,
    content: parsed.content.trim(),
    entities: strings(d.entities),
    tags: strings(d.tags),
    strength: typeof d.strength === 'number' ? d.strength : 1,
    intent: typeof d.intent === 'string' ? d.intent : undefined,
    source: typeof d.source === 'string' ? d.source : undefined,
    created: date(d.created),
    updated: date(d.updated) || date(d.created),
    reinforced: typeof d.reinforced === 'number' ? d.reinforced : 0,
  };
}

export class MemoryStore {
  constructor(
    private readonly vaultDir: string,
    private readonly vault?: MemoryVault,
  ) {}

  private get dir(): string {
    return path.join(this.vaultDir, MEMORY_FOLDER);
  }

  /**
   * The memory notes the vault rule allows: `memory/*.md`, no hidden files, no symlink that
   * leads outside the vault (or to a hidden file); a symlinked `memory/` folder that leaves the
   * vault reads as empty.
   */
  private files(): string[] {
    return listVaultFiles(this.vaultDir, MEMORY_FOLDER, (rel) => /^memory\/[^/]+\.md$/.test(rel), 0);
  }

  /** Every memory note, newest first. Read from disk each time: the folder is the source of truth. */
  list(): Memory[] {
    const out: Memory[] = [];
    for (const rel of this.files()) {
      const f = tryReadVaultFile(this.vaultDir, rel);
      if (!f) continue;
      const m = parseMemory(rel, f.data.toString('utf8'));
      if (m) out.push(m);
    }
    return out.sort((a, b) => b.created.localeCompare(a.created) || a.path.localeCompare(b.path));
  }

  count(): number {
    return this.files().length;
  }

  /** A file name from the date and the first words, unique in the folder. */
  newPath(content: string, createdIso: string): { id: string; path: string } {
    const base = `${createdIso.slice(0, 10)}-${slug(content.split(/\s+/).slice(0, 6).join(' ')).slice(0, 48) || 'memory'}`;
    let name = base;
    for (let i = 2; fs.existsSync(path.join(this.dir, `${name}.md`)); i++) name = `${base}-${i}`;
    return { id: name, path: `${MEMORY_FOLDER}/${name}.md` };
  }

  async write(m: Memory, message: string): Promise<void> {
    const text = renderMemory(m);
    if (this.vault) await this.vault.writeNote(m.path, text, { message });
    else writeFileAtomic(resolveVaultPath(this.vaultDir, m.path), text);
  }
}
