import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import type { VaultNoteView } from '../../../shared/contract/vault';
import { ApiError, call, errorText, routes } from '../api';
import { noteHref, renderNote } from './noteMarkdown';

function fmValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(fmValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * One vault note, read-only: title, path, "Open in Obsidian", "Reveal file", the frontmatter as a
 * small table, the body rendered (sanitised) with wikilinks that open the linked note, backlinks.
 * `onOpen` handles in-app note links (the Vault page follows them; elsewhere they go to the Vault page).
 */
export function NoteView({ path, onOpen }: { path: string; onOpen?: (path: string) => void }) {
  const [note, setNote] = useState<VaultNoteView | null>(null);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setNote(null);
    setError(null);
    setRevealed(null);
    call(routes.vault.note, { query: { path } }).then(
      (n) => live && setNote(n),
      (e: unknown) => live && setError(e instanceof ApiError ? { code: e.code, message: e.message } : { code: 'error', message: String(e) }),
    );
    return () => {
      live = false;
    };
  }, [path]);

  const html = useMemo(() => (note ? renderNote(note.content, note.links) : ''), [note]);

  const follow = (e: MouseEvent) => {
    const a = (e.target as Element).closest('a');
    const href = a?.getAttribute('href') ?? '';
    if (!onOpen || !href.startsWith('#/vault?path=')) return;
    e.preventDefault();
    onOpen(decodeURIComponent(href.slice('#/vault?path='.length)));
  };

  const reveal = async () => {
    setRevealed(null);
    try {
      await call(routes.vault.reveal, { body: { path } });
      setRevealed('Shown in your file manager.');
    } catch (e) {
      setRevealed(errorText(e));
    }
  };

  if (error) {
    return (
      <div className="note-view note-error" role="alert" data-testid="note-error">
        <h2>{error.code === 'note_not_found' || error.code === 'not_found' ? 'This note is not in the vault any more' : 'Cannot show this note'}</h2>
        <p className="muted">{error.message}</p>
      </div>
    );
  }
  if (!note) return <div className="note-view muted" aria-busy="true">Loading {path}…</div>;
  const fm = Object.entries(note.frontmatter);
  return (
    <article className="note-view" data-testid="note-view" data-path={note.path}>
      <header className="note-head">
        <div>
          <h2 className="note-title">{note.title}</h2>
          <div className="muted note-path">{note.path}</div>
        </div>
        <div className="toolbar note-actions">
          <a className="btn btn-small" href={note.obsidian_url} data-testid="open-in-obsidian">
            Open in Obsidian
          </a>
          <button className="btn btn-small" onClick={() => void reveal()}>
            Reveal file
          </button>
        </div>
      </header>
      {revealed && (
        <p className="muted note-revealed" role="status">
          {revealed}
        </p>
      )}
      {fm.length > 0 && (
        <table className="note-frontmatter" aria-label="Frontmatter">
          <tbody>
            {fm.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{fmValue(v)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {note.content.trim() ? (
        // Sanitised by renderNote (allowlist; raw HTML in the note is shown as text).
        <div className="note-body markdown" onClick={follow} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p className="muted">This note is empty.</p>
      )}
      <section className="note-backlinks" aria-label="Backlinks">
        <h3>Linked from</h3>
        {note.backlinks.length ? (
          <ul className="list">
            {note.backlinks.map((b) => (
              <li key={b.path}>
                <a href={noteHref(b.path)} onClick={follow}>
                  {b.title}
                </a>{' '}
                <span className="muted">{b.folder || '/'}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No other note links here.</p>
        )}
      </section>
    </article>
  );
}

/** A "View" button that shows a note in a modal dialog (Esc or Close closes it). */
export function ViewNoteButton({ path, label = 'View' }: { path: string; label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        className="btn btn-small"
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
        aria-label={`${label} ${path}`}
      >
        {label}
      </button>
      {open && <NoteDialog path={path} onClose={() => setOpen(false)} />}
    </>
  );
}

export function NoteDialog({ path, onClose }: { path: string; onClose: () => void }) {
  const [ref, setRef] = useState<HTMLDialogElement | null>(null);
  useEffect(() => {
    if (ref && !ref.open) ref.showModal();
  }, [ref]);
  return (
    <dialog
      ref={setRef}
      className="note-dialog"
      aria-label={`Note ${path}`}
      onClose={onClose}
      onClick={(e) => {
        e.stopPropagation();
        if (e.target === ref) ref?.close();
      }}
      // The page's own shortcuts (j/k/a/…) must not fire while reading.
      onKeyDown={(e) => e.stopPropagation()}
    >
      <div className="note-dialog-body">
        <NoteView path={path} />
        <div className="toolbar">
          <a className="btn btn-small" href={noteHref(path)} onClick={() => ref?.close()}>
            Open on the Vault page
          </a>
          <button className="btn btn-small" onClick={() => ref?.close()} autoFocus>
            Close
          </button>
        </div>
      </div>
    </dialog>
  );
}
