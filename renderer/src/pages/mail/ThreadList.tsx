import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, call, routes } from '../../api';
import { useVirtualRows } from '../../components/useVirtualRows';
import { TriageChips } from './ThreadView';
import type { ThreadItem } from '../../../../shared/contract/mail';
import { who, when } from './format';

/** Every row has this height (px); rows clip to it, which is what lets the list be virtual. */
export const ROW_HEIGHT = 76;
const PAGE = 100;

export interface ThreadListProps {
  inboxId: string;
  status: '' | 'open' | 'snoozed' | 'closed';
  /** The inbox's own address (left out of the "who" column). */
  address?: string;
  activeId: string | null;
  onPick(id: string): void;
  /** Changes when the mail changed (hub MailChanged): the loaded pages are fetched again. */
  refreshKey: number;
  onError(message: string): void;
  /** Told the loaded thread ids, in order, whenever they change (keyboard navigation uses them). */
  onLoaded?(ids: string[]): void;
}

/**
 * The Mail page's thread list over any number of threads: pages of 100 from the server
 * (`/threads/page`, keyset cursors) fetched as the list scrolls near its end, and only the rows
 * in view (plus a few) in the DOM; the rest is empty space of the right height.
 */
export function ThreadList(p: ThreadListProps) {
  const [threads, setThreads] = useState<ThreadItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  // Bumped after every fetch settles, so a refresh that lands while a page was loading (mail
  // changing during a long import) still lets the list page on.
  const [settled, setSettled] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const loading = useRef(false);
  const gen = useRef(0);
  const onError = useRef(p.onError);
  onError.current = p.onError;

  const page = useCallback(
    (c: string | null, limit = PAGE) =>
      call(routes.mail.threadsPage, { params: { id: p.inboxId }, query: { limit, status: p.status || undefined, cursor: c ?? undefined } }),
    [p.inboxId, p.status],
  );

  // First page (and, on a refresh, as many rows as were loaded, so the list does not jump).
  const countRef = useRef(0);
  countRef.current = threads.length;
  useEffect(() => {
    const g = ++gen.current;
    loading.current = true;
    const want = Math.min(500, Math.max(PAGE, countRef.current));
    page(null, want)
      .then((r) => {
        if (g !== gen.current) return;
        // A refresh re-reads the top of the list; rows loaded further down stay (and so does the
        // cursor that continues after them), so the list never shrinks under the reader.
        const keepTail = countRef.current > r.threads.length && r.next_cursor !== null;
        setThreads((cur) => {
          if (!keepTail) return r.threads;
          const fresh = new Set(r.threads.map((t) => t.id));
          return [...r.threads, ...cur.slice(r.threads.length).filter((t) => !fresh.has(t.id))];
        });
        if (!keepTail) setCursor(r.next_cursor);
        setLoaded(true);
      })
      .catch((e: unknown) => onError.current(e instanceof ApiError ? e.message : String(e)))
      .finally(() => {
        if (g === gen.current) loading.current = false;
        setSettled((n) => n + 1);
      });
  }, [page, p.refreshKey]);

  const more = useCallback(() => {
    if (loading.current || !cursor) return;
    const g = gen.current;
    loading.current = true;
    page(cursor)
      .then((r) => {
        if (g !== gen.current) return;
        setThreads((cur) => {
          const have = new Set(cur.map((t) => t.id));
          return [...cur, ...r.threads.filter((t) => !have.has(t.id))];
        });
        setCursor(r.next_cursor);
      })
      .catch((e: unknown) => onError.current(e instanceof ApiError ? e.message : String(e)))
      .finally(() => {
        if (g === gen.current) loading.current = false;
        setSettled((n) => n + 1);
      });
  }, [cursor, page]);

  const active = p.activeId ? threads.findIndex((t) => t.id === p.activeId) : -1;
  // The scroll box is the page's thread column (the list's parent).
  const { start, end, padTop, padBottom } = useVirtualRows(listRef, threads.length, ROW_HEIGHT, { onNearEnd: more, nearEnd: PAGE / 2, recheck: settled, active, mountKey: loaded });
  const onLoaded = useRef(p.onLoaded);
  onLoaded.current = p.onLoaded;
  useEffect(() => {
    onLoaded.current?.(threads.map((t) => t.id));
  }, [threads]);
  if (loaded && threads.length === 0) return <p className="muted empty">No {p.status || ''} threads.</p>;
  return (
    <ul
      ref={listRef}
      className="list mail-thread-list"
      data-testid="thread-list"
      data-total-loaded={threads.length}
      style={{ paddingTop: padTop, paddingBottom: padBottom }}
    >
      {threads.slice(start, end).map((t) => (
        <li key={t.id} style={{ height: ROW_HEIGHT }}>
          <button className={`mail-row ${t.id === p.activeId ? 'active' : ''} ${t.unread ? 'unread' : ''}`} data-thread-id={t.id} onClick={() => p.onPick(t.id)}>
            <span className="mail-row-top">
              <span className="mail-row-who">{t.participants.filter((x) => x.email !== p.address).map(who).slice(0, 2).join(', ') || '—'}</span>
              {t.messages > 1 && <span className="muted">{t.messages}</span>}
              <span className="muted mail-when">{when(t.updated_at)}</span>
            </span>
            <span className="mail-row-subject">{t.subject || '(no subject)'}</span>
            <span className="mail-row-chips">
              <TriageChips t={t.triage} compact />
              {t.labels
                .filter((l) => l !== t.triage?.intent)
                .map((l) => (
                  <span key={l} className="chip">
                    {l}
                  </span>
                ))}
              {t.status === 'snoozed' && t.snooze_until && <span className="chip">⏰ {when(t.snooze_until)}</span>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
