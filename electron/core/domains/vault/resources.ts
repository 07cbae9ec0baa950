import type { ResourceTemplateDef } from '../../kernel/types';
import { MailroomError } from '../../kernel/errors';
import { NOTE_URI_PREFIX, noteUri } from '../../../../shared/contract/vault';
import { readVaultFile } from './paths';
import type { VaultIndex } from './store';
import { notesPage } from './view';

/** Notes per resources/list page. */
export const NOTES_PAGE = 100;

/**
 * Vault notes as MCP resources: `vault://note/{+path}` (each segment percent-encoded), listed a
 * page at a time, read as `text/markdown` through the vault rule — hidden files, symlinks that
 * lead outside the vault and `..` are refused exactly as brain_read_note refuses them.
 */
export function vaultResources(root: string, index: () => VaultIndex): ResourceTemplateDef[] {
  return [
    {
      name: 'vault-note',
      uriTemplate: `${NOTE_URI_PREFIX}{+path}`,
      description: 'A markdown note of the vault by its vault-relative path (e.g. vault://note/projects/atlas.md), with its frontmatter, as text/markdown.',
      mimeType: 'text/markdown',
      listPage: async (cursor) => {
        const page = notesPage(index(), '', { deep: true, limit: NOTES_PAGE, cursor });
        return {
          resources: page.notes.map((n) => ({ uri: noteUri(n.path), name: n.path, title: n.title, description: n.title, mimeType: 'text/markdown' })),
          nextCursor: page.next_cursor ?? undefined,
        };
      },
      readText: async (u) => {
        if (u.protocol !== 'vault:' || u.host !== 'note') return undefined;
        const raw = u.href.slice(NOTE_URI_PREFIX.length).replace(/[?#].*$/, '');
        let rel: string;
        try {
          rel = raw.split('/').map(decodeURIComponent).join('/');
        } catch {
          throw new MailroomError('invalid_argument', `The note URI ${u.href} is not percent-encoded correctly.`);
        }
        if (!/\.(md|markdown)$/i.test(rel)) throw new MailroomError('invalid_argument', `vault://note/ URIs name markdown notes (…/name.md); "${rel}" is not one.`, { path: rel });
        return readVaultFile(root, rel, { maxBytes: 5 * 1024 * 1024 }).data.toString('utf8');
      },
    },
  ];
}
