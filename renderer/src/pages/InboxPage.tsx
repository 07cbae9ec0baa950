import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { call, errorText, routes } from '../api';
import { EmptyState } from '../components/EmptyState';
import { ViewNoteButton } from '../components/NoteView';
import { useCommand } from '../commands';
import { useToasts } from '../components/Toasts';
import { InboxItemExtras } from './inbox/extras';
import { captureDrop } from './inbox/capture';
import { useInbox } from './inbox/useInbox';
import { SuggestedRuleCard } from './inbox/SuggestedRule';
import type { AnalysisItem as InboxItem, Decision } from '../../../shared/contract/inbox';
import './inbox/inbox.css';

const SHORTCUTS: Array<[string, string]> = [
  ['j / k', 'next / previous'],
  ['a', 'accept suggestion'],
  ['e', 'edit destination'],
  ['d', 'delete'],
  ['m', 'merge'],
  ['s', 'skip (keep in inbox)'],
  ['x', 'execute accepted'],
];

/** What accepting the suggestion means (keep is only suggested when nothing places the item). */
function accepted(item: InboxItem): Decision {
  return { action: item.suggested_action, destination: item.destination ?? undefined };
}

function describe(d: Decision): string {
  switch (d.action) {
    case 'move':
      return `move → ${d.destination}`;
    case 'merge':
      return `merge into ${d.destination}`;
    case 'delete':
      return 'delete (to trash)';
    case 'keep':
      return 'keep in inbox';
  }
}

function ConfidenceMeter({ value, threshold }: { value: number; threshold: number }) {
  const level = value >= 0.8 ? 'high' : value >= threshold ? 'mid' : 'low';
  return (
    <span className={`confidence confidence-${level}`} title={`confidence ${value}`}>
      <span className="confidence-bar" style={{ width: `${Math.round(value * 100)}%` }} />
      <span className="confidence-label">{Math.round(value * 100)}%</span>
    </span>
  );
}

export function InboxPage() {
  const { data, error, folders, reload } = useInbox();
  const toasts = useToasts();
  const [cursor, setCursor] = useState(0);
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [editing, setEditing] = useState<{ path: string; mode: 'move' | 'merge'; value: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const [banner, setBanner] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const items = useMemo(() => data?.items ?? [], [data]);
  const threshold = data?.threshold ?? 0.7;
  const current = items[Math.min(cursor, Math.max(0, items.length - 1))];
  const review = useMemo(() => new Set(data?.needs_review ?? items.filter((i) => i.suggested_action === 'move' && i.confidence < threshold).map((i) => i.path)), [data, items, threshold]);

  // Decisions for items that left the inbox are dropped.
  useEffect(() => {
    setDecisions((d) => Object.fromEntries(Object.entries(d).filter(([p]) => items.some((i) => i.path === p))));
    setCursor((c) => Math.min(c, Math.max(0, items.length - 1)));
  }, [items]);

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>('[data-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  const decide = useCallback((path: string, d: Decision | null) => {
    setDecisions((all) => {
      const next = { ...all };
      if (d) next[path] = d;
      else delete next[path];
      return next;
    });
  }, []);

  const acceptedCount = Object.keys(decisions).length;

  const execute = useCallback(async () => {
    const actions = Object.entries(decisions).map(([path, d]) => ({ path, action: d.action, ...(d.destination && d.action !== 'delete' && d.action !== 'keep' ? { destination: d.destination } : {}) }));
    if (!actions.length || busy) return;
    setBusy(true);
    try {
      const r = await call(routes.inbox.execute, { body: { actions } });
      const done = r.results.filter((x) => x.status === 'done').length;
      const failed = r.results.filter((x) => x.status === 'error');
      setDecisions({});
      setBanner(failed.length ? { kind: 'error', text: failed.map((f) => `${f.path}: ${f.error?.message}`).join(' · ') } : null);
      if (r.undo_id) {
        const undoId = r.undo_id;
        toasts.show({
          title: `Filed ${done} item${done === 1 ? '' : 's'}`,
          body: r.commit ? `Committed ${r.commit.slice(0, 7)}` : undefined,
          timeout: 15_000,
          action: {
            label: 'Undo',
            run: () => {
              void call(routes.inbox.undo, { body: { undo_id: undoId } })
                .then(() => toasts.show({ title: 'Undone', body: 'Every file is back where it was.' }))
                .catch((e: unknown) => toasts.show({ title: 'Undo failed', body: errorText(e), kind: 'error' }))
                .finally(() => void reload());
            },
          },
        });
      }
      await reload();
    } catch (e) {
      setBanner({ kind: 'error', text: errorText(e) });
    } finally {
      setBusy(false);
    }
  }, [decisions, busy, reload, toasts]);

  const acceptAbove = useCallback(() => {
    setDecisions((all) => {
      const next = { ...all };
      for (const i of items) if (i.confidence >= threshold && i.suggested_action !== 'keep') next[i.path] = accepted(i);
      return next;
    });
  }, [items, threshold]);
  useCommand('inbox.acceptAbove', acceptAbove, items.length > 0);

  const startEdit = useCallback(
    (item: InboxItem, mode: 'move' | 'merge') => {
      const d = decisions[item.path];
      const initial = d?.destination ?? item.destination ?? '';
      setEditing({ path: item.path, mode, value: mode === 'move' ? initial.replace(/[^/]*\.md$/, '') : initial });
    },
    [decisions],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (editing || e.ctrlKey || e.metaKey || e.altKey || (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable))) return;
      const item = current;
      if (!item) return;
      const step = (n: number) => setCursor((c) => Math.max(0, Math.min(items.length - 1, c + n)));
      switch (e.key) {
        case 'j':
        case 'ArrowDown':
          step(1);
          break;
        case 'k':
        case 'ArrowUp':
          step(-1);
          break;
        case 'a':
          if (item.suggested_action === 'keep' && !item.destination) startEdit(item, 'move');
          else {
            decide(item.path, accepted(item));
            step(1);
          }
          break;
        case 'e':
          startEdit(item, 'move');
          break;
        case 'd':
          decide(item.path, { action: 'delete' });
          step(1);
          break;
        case 'm':
          if ((item.suggested_action === 'merge' || item.suggested_action === 'delete') && item.destination) {
            decide(item.path, { action: 'merge', destination: item.destination });
            step(1);
          } else startEdit(item, 'merge');
          break;
        case 's':
          // Skip = keep it in the inbox for now; executed, it is recorded like any other decision.
          decide(item.path, { action: 'keep' });
          step(1);
          break;
        case 'x':
          void execute();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items, current, editing, decide, execute, startEdit]);

  const saveEdit = () => {
    if (!editing) return;
    const item = items.find((i) => i.path === editing.path);
    const v = editing.value.trim();
    if (item && v) {
      const name = item.destination?.split('/').pop() ?? item.path.split('/').pop()!;
      const destination = editing.mode === 'merge' || v.endsWith('.md') ? v : `${v.replace(/\/+$/, '')}/${name}`;
      decide(item.path, { action: editing.mode, destination });
    }
    setEditing(null);
  };

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    try {
      const n = await captureDrop(e.dataTransfer);
      if (n) toasts.show({ title: `Captured ${n} item${n === 1 ? '' : 's'} to the inbox` });
    } catch (err) {
      setBanner({ kind: 'error', text: errorText(err) });
    }
  };

  return (
    <section
      className={`page inbox-page ${over ? 'inbox-drop-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setOver(false);
      }}
      onDrop={(e) => void onDrop(e)}
      data-testid="inbox-page"
    >
      <header className="page-header">
        <h1>
          Inbox {data && <span className="badge">{data.count}</span>}
        </h1>
        <div className="toolbar">
          <button className="btn" onClick={acceptAbove} disabled={!items.length}>
            Accept all above {threshold}
          </button>
          <button className="btn btn-primary" onClick={() => void execute()} disabled={!acceptedCount || busy}>
            {busy ? 'Filing…' : `Execute ${acceptedCount || ''} selected`.replace('  ', ' ')}
          </button>
        </div>
      </header>

      <div className="inbox-shortcuts muted" aria-label="Keyboard shortcuts">
        {SHORTCUTS.map(([k, label]) => (
          <span key={k}>
            <kbd>{k}</kbd> {label}
          </span>
        ))}
        <span className="inbox-drop-hint">Drop files or text anywhere to capture</span>
      </div>

      {banner && (
        <div className={banner.kind === 'error' ? 'error inbox-banner' : 'inbox-banner'} role="alert">
          {banner.text}
          <button className="btn btn-small" onClick={() => setBanner(null)}>
            Dismiss
          </button>
        </div>
      )}
      {error && (
        <div className="error inbox-banner" role="alert">
          Could not load the inbox: {error}{' '}
          <button className="btn btn-small" onClick={() => void reload()}>
            Retry
          </button>
        </div>
      )}
      {data && data.rules_unparsed.length > 0 && (
        <details className="inbox-rules muted">
          <summary>{data.rules_unparsed.length} rule(s) Mailroom cannot apply itself</summary>
          <ul>
            {data.rules_unparsed.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </details>
      )}

      {(data?.rule_suggestions ?? []).map((s) => (
        <SuggestedRuleCard
          key={s.id}
          suggestion={s}
          onDone={(message) => {
            toasts.show({ title: message });
            void reload();
          }}
        />
      ))}

      {!data && !error && <p className="muted">Loading…</p>}
      {data && items.length === 0 && (
        <EmptyState title="Inbox zero" body="Nothing waiting to be filed. Drop notes or files here, or save from Claude with brain_inbox_save." />
      )}

      <ol className="list inbox-list" ref={listRef}>
        {items.map((item, i) => {
          const d = decisions[item.path];
          const isCurrent = item === current;
          return (
            <li
              key={item.path}
              className={`card inbox-item ${isCurrent ? 'inbox-current' : ''} ${d ? 'inbox-accepted' : ''}`}
              data-current={isCurrent}
              data-path={item.path}
              onClick={() => setCursor(i)}
            >
              <div className="inbox-item-head">
                <div className="inbox-title">
                  <strong>{item.title}</strong>
                  <span className="muted inbox-path">{item.path}</span>
                </div>
                <span className="inbox-meta">
                  {review.has(item.path) && (
                    <span className="chip inbox-review" title={`confidence below the rules' threshold ${threshold}`}>
                      needs review
                    </span>
                  )}
                  <ConfidenceMeter value={item.confidence} threshold={threshold} />
                </span>
              </div>
              {item.summary && <p className="inbox-summary">{item.summary}</p>}
              <div className="inbox-suggestion">
                <span className={`chip inbox-action inbox-action-${item.suggested_action}`}>{item.suggested_action}</span>
                {item.destination && <code className="inbox-dest">{item.destination}</code>}
                <span className="muted inbox-reason">{item.reasoning}</span>
              </div>
              {(item.entities.length > 0 || item.rules_matched.length > 0) && (
                <div className="inbox-chips">
                  {item.entities.map((e) => (
                    <span key={e} className="chip" title={item.entity_locations[e]?.join(', ') || 'not found in the vault'}>
                      {e}
                      {item.entity_locations[e] ? <span className="muted"> · {item.entity_locations[e][0]}</span> : null}
                    </span>
                  ))}
                  {item.rules_matched.map((r) => (
                    <span key={r} className="chip inbox-rule">
                      rule: {r}
                    </span>
                  ))}
                </div>
              )}
              {editing?.path === item.path ? (
                <form
                  className="inbox-edit"
                  onSubmit={(e) => {
                    e.preventDefault();
                    saveEdit();
                  }}
                >
                  <label>
                    {editing.mode === 'move' ? 'Move to folder' : 'Merge into note'}
                    <input
                      className="input"
                      autoFocus
                      list="inbox-folders"
                      value={editing.value}
                      aria-label={editing.mode === 'move' ? 'Destination folder' : 'Note to merge into'}
                      onChange={(e) => setEditing({ ...editing, value: e.target.value })}
                      onKeyDown={(e) => {
                        if (e.key === 'Escape') setEditing(null);
                      }}
                    />
                  </label>
                  <button className="btn btn-primary btn-small" type="submit">
                    Set
                  </button>
                  <button className="btn btn-small" type="button" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <div className="inbox-decision">
                  {d ? <span className="badge inbox-decided">✓ {describe(d)}</span> : <span className="muted">not selected</span>}
                  <span className="inbox-buttons">
                    <ViewNoteButton path={item.path} />
                    <button className="btn btn-small" onClick={() => decide(item.path, accepted(item))} disabled={item.suggested_action === 'keep' && !item.destination}>
                      Accept
                    </button>
                    <button className="btn btn-small" onClick={() => startEdit(item, 'move')}>
                      Edit
                    </button>
                    <button className="btn btn-small" onClick={() => decide(item.path, { action: 'delete' })}>
                      Delete
                    </button>
                    <button className="btn btn-small" onClick={() => decide(item.path, { action: 'keep' })}>
                      Skip
                    </button>
                    {d && (
                      <button className="btn btn-small" onClick={() => decide(item.path, null)}>
                        Clear
                      </button>
                    )}
                  </span>
                </div>
              )}
              <InboxItemExtras item={item} />
            </li>
          );
        })}
      </ol>
      <datalist id="inbox-folders">
        {folders.filter((f) => !f.startsWith('inbox') && !f.startsWith('_')).map((f) => (
          <option key={f} value={`${f}/`} />
        ))}
      </datalist>
    </section>
  );
}
