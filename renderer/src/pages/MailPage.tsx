import { useCallback, useEffect, useState } from 'react';
import { api, ApiError } from '../api';
import { useHubEvent, useOnReconnect } from '../hub';
import { EmptyState } from '../components/EmptyState';
import { ImportDrop } from './mail/ImportDrop';
import { ThreadView } from './mail/ThreadView';
import { ThreadList } from './mail/ThreadList';
import { type InboxView } from './mail/types';
import './mail/mail.css';

type StatusFilter = 'open' | 'snoozed' | 'closed' | '';

interface SearchHit {
  message_id: string;
  thread_id: string;
  snippet?: string;
  subject: string;
  score: number;
}

/** Mail: inboxes with unread counts, threads with labels/triage/status, the thread, search, drafts and import. */
export function MailPage() {
  const [inboxes, setInboxes] = useState<InboxView[] | null>(null);
  const [inboxId, setInboxId] = useState<string | null>(() => sessionStorage.getItem('mailroom.mail.inbox'));
  // Bumped when mail changes: the thread list (paged, virtualized) fetches its pages again.
  const [threadsKey, setThreadsKey] = useState(0);
  const [status, setStatus] = useState<StatusFilter>('open');
  const [threadId, setThreadId] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [policies, setPolicies] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [address, setAddress] = useState('');

  const loadInboxes = useCallback(async () => {
    try {
      const list = await api.get<InboxView[]>('/api/mail/inboxes');
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
  }, [inboxId]);
  useEffect(() => {
    void api
      .get<{ policies: string[] }>('/api/mail/config')
      .then((c) => setPolicies(c.policies))
      .catch(() => {});
  }, []);
  const reloadAll = useCallback(() => {
    void loadInboxes();
    void loadThreads();
  }, [loadInboxes, loadThreads]);
  useHubEvent('MailChanged', reloadAll);
  useOnReconnect(reloadAll);

  const search = async () => {
    if (!inboxId || !query.trim()) return setHits(null);
    try {
      const r = await api.get<{ results: SearchHit[] }>(`/api/mail/search?inbox=${encodeURIComponent(inboxId)}&q=${encodeURIComponent(query)}`);
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
          <input className="input" type="search" placeholder="Search this inbox" value={query} onChange={(e) => (setQuery(e.target.value), !e.target.value && setHits(null))} aria-label="Search mail" />
        </form>
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
                  {i.unread > 0 && <span className="badge">{i.unread}</span>}
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
                void api
                  .post<InboxView>('/api/mail/inboxes', { address })
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
            <EmptyState title="No inboxes yet" body="Add an inbox for an address, then drop an mbox or .eml file on it, or import with `mailroom mail import PATH --inbox ID`." />
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
                    <button className={`mail-row ${h.thread_id === threadId ? 'active' : ''}`} onClick={() => setThreadId(h.thread_id)}>
                      <span className="mail-row-subject">{h.subject || '(no subject)'}</span>
                      <span className="muted mail-snippet">{h.snippet}</span>
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
              {inbox && <ThreadList inboxId={inbox.id} status={status} address={inbox.address} activeId={threadId} onPick={setThreadId} refreshKey={threadsKey} onError={setError} />}
            </>
          )}
        </div>

        <div className="mail-view">{threadId ? <ThreadView key={threadId} threadId={threadId} policies={policies} toast={flash} /> : <p className="muted empty">Pick a thread to read it.</p>}</div>
      </div>
    </section>
  );
}
