import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, call, routes } from '../api';
import { HubEvent } from '../../../shared/contract';
import type { InboxView, SearchHit } from '../../../shared/contract/mail';
import { useHubEvent, useOnReconnect } from '../hub';
import { EmptyState } from '../components/EmptyState';
import { ImportDrop } from './mail/ImportDrop';
import { ThreadView, type ThreadCommand } from './mail/ThreadView';
import { ThreadList } from './mail/ThreadList';
import { Compose, type ComposeMode } from './mail/Compose';
import { Snippet } from './mail/Snippet';
import { capCount } from '../../../shared/badge';
import './mail/mail.css';

type StatusFilter = 'open' | 'snoozed' | 'closed' | '';


/** Mail: inboxes with unread counts, threads with labels/triage/status, the thread, search, drafts and import. */
export function MailPage() {
  const [inboxes, setInboxes] = useState<InboxView[] | null>(null);
  const [inboxId, setInboxId] = useState<string | null>(() => sessionStorage.getItem('mailroom.mail.inbox'));
  // Bumped when mail changes: the thread list (paged, virtualized) fetches its pages again.
  const [threadsKey, setThreadsKey] = useState(0);
  const [status, setStatus] = useState<StatusFilter>('open');
  const [threadId, setThreadId] = useState<string | null>(null);
  // The ids the virtualized thread list has loaded so far, in order (for j/k).
  const [threadIds, setThreadIds] = useState<string[]>([]);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [policies, setPolicies] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [address, setAddress] = useState('');
  const [compose, setCompose] = useState<ComposeMode | null>(null);
  const [command, setCommand] = useState<ThreadCommand | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const loadInboxes = useCallback(async () => {
    try {
      const list = await call(routes.mail.inboxes);
      setInboxes(list);
      setInboxId((cur) => (cur && list.some((i) => i.id === cur) ? cur : (list[0]?.id ?? null)));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  }, []);
  const loadThreads = useCallback(() => setThreadsKey((k) => k + 1), []);

  useEffect(() => void loadInboxes(), [loadInboxes]);
  useEffect(() => {
    if (inboxId) sessionStorage.setItem('mailroom.mail.inbox', inboxId);
    setThreadId(null);
    setHits(null);
    setCompose(null);
  }, [inboxId]);
  useEffect(() => {
    void call(routes.mail.config)
      .then((c) => setPolicies(c.policies))
      .catch(() => {});
  }, []);
  const reloadAll = useCallback(() => {
    void loadInboxes();
    void loadThreads();
  }, [loadInboxes, loadThreads]);
  useHubEvent(HubEvent.mailChanged, reloadAll);
  useOnReconnect(reloadAll);

  const search = async () => {
    if (!inboxId || !query.trim()) return setHits(null);
    try {
      const r = await call(routes.mail.search, { query: { inbox: inboxId, q: query } });
      setHits(r.results);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  const flash = (msg: string) => {
    setNote(msg);
    window.setTimeout(() => setNote((n) => (n === msg ? null : n)), 6000);
  };

  const inbox = inboxes?.find((i) => i.id === inboxId);

  // Keyboard: j/k move in the thread list (or the search results), r reply, f forward, e close,
  // c compose, / search. Never while typing in a field.
  const keys = useRef<(e: KeyboardEvent) => void>(() => undefined);
  keys.current = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const el = e.target as HTMLElement | null;
    if (el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))) return;
    const ids = hits ? [...new Set(hits.map((h) => h.thread_id))] : threadIds;
    const move = (step: number) => {
      if (!ids.length) return;
      const i = threadId ? ids.indexOf(threadId) : -1;
      const next = ids[Math.max(0, Math.min(ids.length - 1, i < 0 ? 0 : i + step))];
      if (next === undefined) return;
      setCompose(null);
      setThreadId(next);
      document.querySelector(`[data-thread-id="${CSS.escape(next)}"]`)?.scrollIntoView({ block: 'nearest' });
    };
    const run = (kind: ThreadCommand['kind']) => threadId && !compose && setCommand((c) => ({ kind, n: (c?.n ?? 0) + 1 }));
    const actions: Record<string, () => void> = {
      j: () => move(1),
      k: () => move(-1),
      r: () => run('reply'),
      f: () => run('forward'),
      e: () => run('close'),
      c: () => inbox && setCompose({ kind: 'new' }),
      '/': () => searchRef.current?.focus(),
    };
    const act = actions[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  };
  useEffect(() => {
    const on = (e: KeyboardEvent) => keys.current(e);
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, []);

  return (
    <section className="page mail-page">
      <header className="page-header">
        <h1>Mail</h1>
        <form
          className="mail-search"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            void search();
          }}
        >
          <input ref={searchRef} className="input" type="search" placeholder="Search this inbox  ( / )" value={query} onChange={(e) => (setQuery(e.target.value), !e.target.value && setHits(null))} aria-label="Search mail" />
        </form>
        <button className="btn btn-primary" disabled={!inbox} title="New message (c)" onClick={() => setCompose({ kind: 'new' })} data-testid="compose-button">
          Compose
        </button>
      </header>
      {note && (
        <p className="ok" role="status" data-testid="mail-note">
          {note}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="mail-grid">
        <aside className="mail-inboxes">
          <ul className="list">
            {(inboxes ?? []).map((i) => (
              <li key={i.id}>
                <button className={`mail-inbox ${i.id === inboxId ? 'active' : ''}`} onClick={() => setInboxId(i.id)}>
                  <span className="mail-inbox-name">{i.name || i.address}</span>
                  {i.unread > 0 && (
                    <span className="badge" aria-label={`${i.unread} unread`}>
                      {capCount(i.unread)}
                    </span>
                  )}
                  {i.status === 'paused' && <span className="chip">paused</span>}
                </button>
              </li>
            ))}
          </ul>
          {adding ? (
            <form
              className="mail-add"
              onSubmit={(e) => {
                e.preventDefault();
                void call(routes.mail.createInbox, { body: { address } })
                  .then((ib) => {
                    setAdding(false);
                    setAddress('');
                    setInboxId(ib.id);
                    void loadInboxes();
                  })
                  .catch((err: unknown) => setError(err instanceof ApiError ? err.message : String(err)));
              }}
            >
              <input className="input" placeholder="you@example.com" value={address} onChange={(e) => setAddress(e.target.value)} aria-label="Inbox address" autoFocus />
              <button className="btn btn-primary btn-small">Add</button>
            </form>
          ) : (
            <button className="btn btn-small" onClick={() => setAdding(true)}>
              + Inbox
            </button>
          )}
          {inbox && <ImportDrop inboxId={inbox.id} onImported={(m) => (flash(m), reloadAll())} />}
        </aside>

        <div className="mail-threads">
          {inboxes && inboxes.length === 0 ? (
            <EmptyState
              title="No inboxes yet"
              body="Add a mail account (IMAP to receive, SMTP to send) in Settings, or add an inbox here and drop an mbox or .eml file on it."
              action={
                <a className="btn btn-primary" href="#/settings/mail">
                  Add a mail account
                </a>
              }
            />
          ) : hits ? (
            <>
              <div className="toolbar">
                <b>{hits.length} results</b>
                <button className="btn btn-small" onClick={() => (setHits(null), setQuery(''))}>
                  Clear
                </button>
              </div>
              <ul className="list">
                {hits.map((h) => (
                  <li key={h.message_id}>
                    <button className={`mail-row ${h.thread_id === threadId ? 'active' : ''}`} data-thread-id={h.thread_id} onClick={() => (setCompose(null), setThreadId(h.thread_id))}>
                      <span className="mail-row-subject">{h.subject || '(no subject)'}</span>
                      {h.snippet && <Snippet text={h.snippet} />}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <div className="toolbar mail-tabs" role="tablist">
                {(['open', 'snoozed', 'closed', ''] as StatusFilter[]).map((s) => (
                  <button key={s || 'all'} role="tab" aria-selected={status === s} className={`btn btn-small ${status === s ? 'btn-primary' : ''}`} onClick={() => setStatus(s)}>
                    {s || 'all'}
                  </button>
                ))}
              </div>
              {inbox && (
                <ThreadList
                  inboxId={inbox.id}
                  status={status}
                  address={inbox.address}
                  activeId={threadId}
                  onPick={(id) => (setCompose(null), setThreadId(id))}
                  onLoaded={setThreadIds}
                  refreshKey={threadsKey}
                  onError={setError}
                />
              )}
            </>
          )}
        </div>

        <div className="mail-view">
          {compose && inbox ? (
            <Compose
              key={compose.kind === 'forward' ? compose.message.id : 'new'}
              inbox={inbox}
              mode={compose}
              onCancel={() => setCompose(null)}
              onDone={(r, msg) => {
                setCompose(null);
                flash(msg);
                if (r.thread_id) setThreadId(r.thread_id);
                reloadAll();
              }}
            />
          ) : threadId ? (
            <ThreadView key={threadId} threadId={threadId} policies={policies} toast={flash} command={command} onForward={(m) => setCompose({ kind: 'forward', message: m })} />
          ) : (
            <p className="muted empty">Pick a thread to read it (j/k move, r reply, f forward, e close, c compose, / search).</p>
          )}
        </div>
      </div>
    </section>
  );
}
