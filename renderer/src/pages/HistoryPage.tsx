import { useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryDetail, HistoryEntry, HistoryListReply } from '../../../shared/contract/history';
import { HubEvent } from '../../../shared/contract';
import { call, errorText, routes } from '../api';
import { EmptyState } from '../components/EmptyState';
import { useToasts } from '../components/Toasts';
import { useHubEvent } from '../hub';
import './history/history.css';

const KIND_LABEL: Record<HistoryEntry['kind'], string> = {
  inbox: 'filed',
  undo: 'undo',
  capture: 'capture',
  memory: 'memory',
  rule: 'rule',
  routed: 'routed',
  sent: 'sent',
  vault: 'vault',
};

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function DiffBlock({ text }: { text: string }) {
  return (
    <pre className="diff" data-testid="diff">
      {text.replace(/\n$/, '').split('\n').map((l, i) => (
        <span key={i} className={l.startsWith('@@') ? 'diff-hunk' : l.startsWith('+++') || l.startsWith('---') ? 'diff-file' : l.startsWith('+') ? 'diff-add' : l.startsWith('-') ? 'diff-del' : ''}>
          {l || ' '}
        </span>
      ))}
    </pre>
  );
}

function Detail({ id }: { id: string }) {
  const [d, setD] = useState<HistoryDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call(routes.history.entry, { query: { id } }).then(setD, (e: Error) => setError(e.message));
  }, [id]);
  if (error) return <p className="error">{error}</p>;
  if (!d) return <p className="muted">Loading…</p>;
  return (
    <div className="history-detail" data-testid="history-detail">
      {d.message.includes('\n') && <pre className="history-message">{d.message}</pre>}
      {d.facts.length > 0 && (
        <dl className="facts">
          {d.facts.map(([k, v]) => (
            <div className="fact-row" key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {d.changes.length === 0 && d.facts.length === 0 && <p className="muted">No file changes recorded.</p>}
      {d.changes.map((c) => (
        <div key={`${c.from ?? ''}→${c.path}`} className="history-file">
          <div className="history-file-head">
            <span className={`chip history-status history-status-${c.status}`}>{c.status}</span>
            <code>{c.from ? `${c.from} → ${c.path}` : c.path}</code>
          </div>
          {c.binary ? <p className="muted">Binary file.</p> : c.diff ? <DiffBlock text={c.diff} /> : c.status === 'moved' ? <p className="muted">Moved unchanged.</p> : null}
        </div>
      ))}
    </div>
  );
}

export function HistoryPage() {
  const [list, setList] = useState<HistoryListReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<HistoryEntry | null>(null);
  const [busy, setBusy] = useState(false);
  const [undoError, setUndoError] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const toasts = useToasts();

  const reload = useCallback(() => {
    call(routes.history.list, { query: { limit: 50 } }).then(
      (r) => {
        setList(r);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  useEffect(reload, [reload]);
  useHubEvent(HubEvent.inboxChanged, reload);

  useEffect(() => {
    if (confirm && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [confirm]);

  const more = async () => {
    if (!list?.next_cursor) return;
    const r = await call(routes.history.list, { query: { limit: 50, cursor: list.next_cursor } });
    setList({ ...r, entries: [...list.entries, ...r.entries] });
  };

  const undo = async () => {
    if (!confirm) return;
    setBusy(true);
    setUndoError(null);
    try {
      const r = await call(routes.history.undo, { body: { id: confirm.id } });
      dialog.current?.close();
      toasts.show({ title: 'Undone', body: `${r.restored.length} file${r.restored.length === 1 ? '' : 's'} back where they were.` });
      reload();
    } catch (e) {
      setUndoError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page history-page" data-testid="history-page">
      <header className="page-header">
        <h1>History</h1>
        <button className="btn btn-small" onClick={reload}>
          Refresh
        </button>
      </header>
      <p className="muted">Everything Mailroom did — filing, captures, memories, routed items, sent mail — newest first. Open an entry to see what changed.</p>
      {list && !list.git && (
        <p className="chip history-nogit" role="note">
          The vault is not a git repository: only inbox batches, routed items and sent mail are listed (set git_init: true to keep every change).
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {list && list.entries.length === 0 ? (
        <EmptyState title="Nothing yet" body="When Mailroom files inbox items, captures notes, routes items or sends mail, each batch shows up here with what it changed." />
      ) : (
        <ol className="list history-list">
          {list?.entries.map((e) => (
            <li key={e.id} className={`card history-entry ${open === e.id ? 'open' : ''}`} data-id={e.id} data-kind={e.kind}>
              <div className="history-row">
                <button className="history-toggle" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                  <span className={`chip history-kind history-kind-${e.kind}`}>{KIND_LABEL[e.kind]}</span>
                  <span className="history-title">{e.title}</span>
                  <span className="muted history-when">{when(e.at)}</span>
                </button>
                {e.undo.possible ? (
                  <button
                    className="btn btn-small"
                    onClick={() => {
                      setUndoError(null);
                      setConfirm(e);
                    }}
                  >
                    Undo
                  </button>
                ) : (
                  <span className="muted history-noundo" title={e.undo.reason ?? ''}>
                    {e.undo.undone ? 'undone' : 'no undo'}
                  </span>
                )}
              </div>
              {open === e.id && (
                <>
                  {!e.undo.possible && e.undo.reason && <p className="muted history-why">{e.undo.reason}</p>}
                  <Detail id={e.id} />
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      {list?.next_cursor && (
        <button className="btn" onClick={() => void more()}>
          Older entries
        </button>
      )}
      {confirm && (
        <dialog ref={dialog} className="note-dialog history-confirm" onClose={() => setConfirm(null)} aria-label="Confirm undo">
          <div className="note-dialog-body">
            <h2>Undo “{confirm.title}”?</h2>
            <p>Every file this batch moved, merged or deleted goes back exactly as it was, in a new commit. This only works while those files are unchanged since.</p>
            {undoError && (
              <p className="error" role="alert">
                {undoError}
              </p>
            )}
            <div className="toolbar">
              <button className="btn btn-primary" onClick={() => void undo()} disabled={busy}>
                {busy ? 'Undoing…' : 'Undo'}
              </button>
              <button className="btn" onClick={() => dialog.current?.close()} autoFocus>
                Cancel
              </button>
            </div>
          </div>
        </dialog>
      )}
    </section>
  );
}
