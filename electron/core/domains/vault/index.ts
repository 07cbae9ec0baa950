/**
 * The vault's public face: what other domains, the host and the tests may use. Everything else in
 * this folder is internal and may move freely (`npm run depcheck` enforces that).
 *
 * The vault: a folder of markdown notes, indexed (FTS5, links, aliases, entity occurrences) in
 * `<data-dir>/index.db`, watched with chokidar, written atomically and versioned with git. Every
 * read of the vault folder anywhere in Mailroom goes through the vault rule exported here
 * (`readVaultFile`, `listVaultFiles`, `resolveVaultPath`, …).
 */
export { createVault } from './domain';
export { vaultCommands } from './cli';
export { VaultIndex, catchUp, catchUpSteps, listNoteFiles, ftsQuery, makeSnippet, COMMON_TERM_DOCS, type SearchHit, type EntityPlace, type NameLookup, type CatchUpReport } from './store';
export { parseNote, splitFrontmatter, bodyOf, parseYaml, stringifyYaml, capitalizedPhrases, normName, searchableText, fileStem, type ParsedNote } from './parse';
export {
  normalizeRel,
  resolveInVault,
  resolveVaultPath,
  readVaultFile,
  tryReadVaultFile,
  vaultFileStat,
  vaultReader,
  listVaultFiles,
  countNotes,
  PATH_HIDDEN,
  folderOf,
  isNotePath,
  isIgnoredRel,
  toPosix,
  type VaultFile,
  type VaultReader,
} from './paths';
export { atomicWrite, moveFile, freePath, sha256, hashFile, TEMP_PREFIX } from './fsops';
export { openVaultGit, type VaultGit } from './git';
export type { VaultOptions, IndexStatus, Note, VaultApi, VaultDomain } from './api';
