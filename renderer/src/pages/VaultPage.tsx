import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { VaultNotesReply, VaultSearchHit, VaultSearchReply, VaultTreeReply } from '../../../shared/contract/vault';
import { ApiError, call, routes } from '../api';
import { EmptyState } from '../components/EmptyState';
import { Highlight } from '../components/Highlight';
import { NoteView } from '../components/NoteView';
import { useVirtualRows } from '../components/useVirtualRows';
import './vault/vault.css';

/** `#/vault?q=…&path=…&folder=…` — the page's state lives in the hash, so Back works. */
function readHash(): { q: string; path: string; folder: string } {
  const p = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
  return { q: p.get('q') ?? '', path: p.get('path') ?? '', folder: p.get('folder') ?? '' };
}

function hashOf(s: { q?: string; path?: string; folder?: string }): string {
  const p = new URLSearchParams();
  if (s.q) p.set('q', s.q);
  if (s.folder) p.set('folder', s.folder);
  if (s.path) p.set('path', s.path);
  const qs = p.toString();
  return `#/vault${qs ? `?${qs}` : ''}`;
}

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

type Row = { path: string; title: string; folder: string; hit?: VaultSearchHit };

/** Row heights (px): rows clip to them, which is what lets the lists be virtual over any number of notes. */
const NOTE_ROW = 56;
const HIT_ROW = 96;
const NOTES_PAGE = 200;
const SEARCH_PAGE = 50;

const SHORTCUTS: Array<[string, string]> = [
  ['/', 'search'],
  ['j / k', 'next / previous result'],
  ['Enter', 'open'],
  ['Backspace, Alt+←', 'back'],
];

export function VaultPage() {
  const [state, setState] = useState(readHash);
  const [input, setInput] = useState(state.q);
  const [search, setSearch] = useState<VaultSearchReply | null>(null);
  const [tree, setTree] = useState<VaultTreeReply | null>(null);
  const [notes, setNotes] = useState<VaultNotesReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const [loading, setLoading] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const on = () => {
      const s = readHash();
      setState(s);
      setInput(s.q);
    };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);

  const go = useCallback((next: { q?: string; path?: string; folder?: string }) => {
    const h = hashOf(next);
    if (h !== window.location.hash) window.location.hash = h;
  }, []);

  useEffect(() => {
    call(routes.vault.tree).then(setTree, (e: Error) => setError(e.message));
  }, []);

  // Search as you type (debounced); the URL keeps the query without adding history entries.
  useEffect(() => {
    const q = input.trim();
    const t = setTimeout(() => {
      if (q !== state.q) {
        window.history.replaceState(null, '', hashOf({ ...state, q }));
        setState((s) => ({ ...s, q }));
      }
    }, 200);
    return () => clearTimeout(t);
  }, [input, state]);

  useEffect(() => {
    if (!state.q) {
      setSearch(null);
      return;
    }
    let live = true;
    setLoading(true);
    setError(null);
    call(routes.vault.search, { query: { q: state.q, limit: SEARCH_PAGE } }).then(
      (r) => {
        if (!live) return;
        setSearch(r);
        setCursor(0);
        setLoading(false);
      },
      (e: unknown) => {
        if (!live) return;
        setError(e instanceof ApiError ? e.message : String(e));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [state.q]);

  useEffect(() => {
    if (state.q) return;
    let live = true;
    call(routes.vault.notes, { query: { folder: state.folder, limit: NOTES_PAGE } }).then(
      (r) => {
        if (!live) return;
        setNotes(r);
        setCursor(0);
      },
      (e: unknown) => live && setError(e instanceof ApiError ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [state.folder, state.q]);

  // The next page of results or notes, asked for as the list scrolls near its end (one at a time).
  const paging = useRef(false);
  const [paged, setPaged] = useState(0);
  const more = useCallback(() => {
    if (paging.current) return;
    const next = state.q
      ? search?.next_offset != null
        ? call(routes.vault.search, { query: { q: search.query, limit: SEARCH_PAGE, offset: search.next_offset } }).then((r) =>
            setSearch((cur) => (cur && cur.query === r.query ? { ...r, hits: [...cur.hits, ...r.hits] } : cur)),
          )
        : undefined
      : notes?.next_cursor
        ? call(routes.vault.notes, { query: { folder: notes.folder, limit: NOTES_PAGE, cursor: notes.next_cursor } }).then((r) =>
            setNotes((cur) => (cur && cur.folder === r.folder ? { ...r, notes: [...cur.notes, ...r.notes] } : cur)),
          )
        : undefined;
    if (!next) return;
    paging.current = true;
    next
      .catch((e: unknown) => setError(e instanceof ApiError ? e.message : String(e)))
      .finally(() => {
        paging.current = false;
        setPaged((n) => n + 1);
      });
  }, [state.q, search, notes]);

  const rows: Row[] = useMemo(
    () => (state.q ? (search?.hits ?? []).map((h) => ({ path: h.path, title: h.title, folder: h.folder, hit: h })) : (notes?.notes ?? [])),
    [state.q, search, notes],
  );
  const open = useCallback((path: string) => go({ q: state.q, folder: state.folder, path }), [go, state.q, state.folder]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey) return;
      if (e.altKey) {
        if (e.key === 'ArrowLeft') {
          e.preventDefault();
          window.history.back();
        }
        return;
      }
      const inSearch = e.target === searchRef.current;
      if (inSearch) {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          setCursor((c) => Math.max(0, Math.min(rows.length - 1, c + (e.key === 'ArrowDown' ? 1 : -1))));
        } else if (e.key === 'Enter' && rows[cursor]) {
          e.preventDefault();
          open(rows[cursor].path);
        } else if (e.key === 'Escape') {
          // Leave the box with the results kept (a search field's own Escape would clear the query).
          e.preventDefault();
          searchRef.current?.blur();
        }
        return;
      }
      if (typing(e.target) || document.querySelector('dialog[open]')) return;
      switch (e.key) {
        case '/':
          searchRef.current?.focus();
          searchRef.current?.select();
          break;
        case 'j':
        case 'ArrowDown':
          setCursor((c) => Math.min(rows.length - 1, c + 1));
          break;
        case 'k':
        case 'ArrowUp':
          setCursor((c) => Math.max(0, c - 1));
          break;
        case 'Enter':
          if (!rows[cursor]) return;
          open(rows[cursor].path);
          break;
        case 'Backspace':
          window.history.back();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows, cursor, open]);

  const rowHeight = state.q ? HIT_ROW : NOTE_ROW;
  const view = useVirtualRows(listRef, rows.length, rowHeight, { onNearEnd: more, nearEnd: state.q ? 10 : 40, recheck: paged, active: cursor, mountKey: `${state.q}|${state.folder}|${rows.length > 0}` });
  const moreToLoad = state.q ? search?.next_offset != null : !!notes?.next_cursor;

  const empty = tree !== null && tree.total_notes === 0;
  const folders = tree?.folders ?? [];

  return (
    <section className="page vault-page" data-testid="vault-page">
      <header className="page-header">
        <h1>Vault</h1>
        <span className="muted">{tree ? `${tree.total_notes.toLocaleString()} notes` : ''}</span>
      </header>
      <div className="vault-search">
        <input
          ref={searchRef}
          className="input"
          type="search"
          placeholder="Search notes — words, &quot;a phrase&quot;, prefix*   ( / )"
          aria-label="Search the vault"
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
      </div>
      <p className="muted vault-keys">
        {SHORTCUTS.map(([k, v]) => (
          <span key={k}>
            <kbd>{k}</kbd> {v}
          </span>
        ))}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {empty ? (
        <EmptyState title="Your vault has no notes yet" body="Capture something to the inbox, or point Mailroom at your notes folder (vault in config.json)." />
      ) : (
        <div className="vault-layout">
          <aside className="vault-side">
            {!state.q && (
              <nav className="vault-tree" aria-label="Folders">
                <button className={`vault-folder ${state.folder === '' ? 'active' : ''}`} onClick={() => go({ folder: '' })}>
                  / <span className="muted">(top level)</span>
                </button>
                {folders.map((f) => {
                  const depth = f.path.split('/').length - 1;
                  return (
                    <button
                      key={f.path}
                      className={`vault-folder ${state.folder === f.path ? 'active' : ''}`}
                      style={{ paddingLeft: 8 + depth * 14 }}
                      onClick={() => go({ folder: f.path })}
                      title={f.path}
                    >
                      {f.path.split('/').pop()} {f.notes > 0 && <span className="muted">{f.notes.toLocaleString()}</span>}
                    </button>
                  );
                })}
              </nav>
            )}
            <div className="vault-results">
              <h2 className="vault-results-head">
                {state.q ? (loading ? 'Searching…' : `Results for “${state.q}”`) : `Notes in ${state.folder || 'the top level'}`}
              </h2>
              {rows.length === 0 && !loading ? (
                <p className="muted vault-none" role="status">
                  {state.q ? `Nothing matches “${state.q}”. Try fewer words or a prefix like ${state.q.split(/\s+/)[0]}*.` : 'No notes directly in this folder; pick a subfolder.'}
                </p>
              ) : (
                // A new query or folder starts a new list, scrolled to its top.
                <div className="vault-scroll" key={`${state.q}|${state.folder}`}>
                  <ol
                    className="list vault-list"
                    ref={listRef}
                    aria-label={state.q ? 'Search results' : 'Notes'}
                    data-total-loaded={rows.length}
                    data-cursor={cursor}
                    style={{ paddingTop: view.padTop, paddingBottom: view.padBottom }}
                  >
                    {rows.slice(view.start, view.end).map((r, k) => {
                      const i = view.start + k;
                      return (
                        <li
                          key={r.path}
                          className={`vault-row ${i === cursor ? 'current' : ''} ${r.path === state.path ? 'open' : ''}`}
                          data-current={i === cursor}
                          style={{ height: rowHeight }}
                        >
                          <a href={hashOf({ q: state.q, folder: state.folder, path: r.path })} onClick={() => setCursor(i)} className="vault-row-link">
                            <strong className="vault-row-title">{r.hit ? <Highlight text={r.title} ranges={r.hit.title_matches} /> : r.title}</strong>
                            <span className="muted vault-row-path">{r.path}</span>
                            {r.hit && r.hit.snippet.text && (
                              <span className="vault-snippet">
                                <Highlight text={r.hit.snippet.text} ranges={r.hit.snippet.matches} />
                              </span>
                            )}
                          </a>
                        </li>
                      );
                    })}
                  </ol>
                </div>
              )}
              {rows.length > 0 && (
                <p className="muted vault-count" role="status">
                  {state.q
                    ? `${rows.length.toLocaleString()}${moreToLoad ? '+' : ''} results${moreToLoad ? ' — scroll for more' : ''}`
                    : moreToLoad && notes
                      ? `${rows.length.toLocaleString()} of ${notes.total.toLocaleString()} notes loaded — scroll for more`
                      : `${rows.length.toLocaleString()} notes`}
                </p>
              )}
            </div>
          </aside>
          <div className="vault-main card">
            {state.path ? (
              <NoteView path={state.path} onOpen={open} />
            ) : (
              <EmptyState title="Pick a note to read" body="Search above or browse a folder; j/k move through the list and Enter opens." />
            )}
          </div>
        </div>
      )}
    </section>
  );
}
