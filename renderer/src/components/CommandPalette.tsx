import { useEffect, useMemo, useRef, useState } from 'react';
import { call, errorText, routes } from '../api';
import { runCommand } from '../commands';
import { useToasts } from './Toasts';

export interface PaletteCommand {
  id: string;
  title: string;
  hint?: string;
  /** Also matched, not shown. */
  keywords?: string;
  run(): void | Promise<void>;
}

/**
 * Fuzzy subsequence score: every query character must appear in order; consecutive runs and
 * word starts score higher, earlier matches a little higher. Undefined = no match.
 */
export function fuzzyScore(query: string, text: string): { score: number; at: number[] } | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return { score: 0, at: [] };
  const t = text.toLowerCase();
  const wordStart = (i: number) => i === 0 || /[^\p{L}\p{N}]/u.test(t.charAt(i - 1));
  let best: { score: number; at: number[] } | undefined;
  // Try every place the first character occurs; keep the best-scoring alignment.
  for (let s = t.indexOf(q.charAt(0)); s >= 0; s = t.indexOf(q.charAt(0), s + 1)) {
    const at = [s];
    let score = 1 + (wordStart(s) ? 4 : 0);
    let last = s;
    for (let k = 1; k < q.length; k++) {
      const i = t.indexOf(q.charAt(k), last + 1);
      if (i < 0) return best;
      score += 1 + (i === last + 1 ? 3 : 0) + (wordStart(i) ? 4 : 0);
      at.push(i);
      last = i;
    }
    score -= s * 0.05;
    if (!best || score > best.score) best = { score, at };
  }
  return best;
}

function Marked({ text, at }: { text: string; at: number[] }) {
  const set = new Set(at);
  return <>{[...text].map((c, i) => (set.has(i) ? <mark key={i}>{c}</mark> : <span key={i}>{c}</span>))}</>;
}

const PAGES: Array<[string, string]> = [
  ['inbox', 'Inbox'],
  ['vault', 'Vault'],
  ['mail', 'Mail'],
  ['sessions', 'Sessions'],
  ['routes', 'Routes'],
  ['history', 'History'],
  ['settings', 'Settings'],
];

/** Ctrl/Cmd+K: pages and actions, fuzzy matched; ↑/↓ (or Ctrl+N/P) move, Enter runs, Esc closes. */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const toasts = useToasts();

  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        // From the dialog itself: Esc closes it before its (queued) close event reaches React.
        setOpen(!dialog.current?.open);
      }
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, []);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      setQuery('');
      setCursor(0);
      d.showModal();
      input.current?.focus();
    } else if (!open && d.open) d.close();
  }, [open]);

  const go = (page: string) => {
    window.location.hash = `#/${page}`;
  };
  const fail = (e: unknown) => toasts.show({ kind: 'error', title: 'Command failed', body: errorText(e) });

  const commands = useMemo<PaletteCommand[]>(() => {
    const typed = query.trim();
    const list: PaletteCommand[] = PAGES.map(([id, label]) => ({ id: `go:${id}`, title: `Go to ${label}`, hint: 'page', run: () => go(id) }));
    list.push(
      {
        id: 'inbox:accept-above',
        title: 'Accept all above threshold',
        hint: 'inbox',
        keywords: 'approve suggestions confident',
        run: () => {
          go('inbox');
          runCommand('inbox.acceptAbove');
        },
      },
      {
        id: 'vault:reindex',
        title: 'Reindex the vault',
        hint: 'vault',
        keywords: 'rebuild index search refresh',
        run: async () => {
          try {
            const r = await call(routes.vault.reindex, { body: { full: false } });
            toasts.show({ title: 'Vault reindexed', body: `${r.scanned} notes checked, ${r.indexed} re-read, ${r.removed} removed in ${r.ms} ms.` });
          } catch (e) {
            fail(e);
          }
        },
      },
    );
    if (typed) {
      list.push(
        { id: 'vault:search', title: `Search the vault for “${typed}”`, hint: 'vault', keywords: typed, run: () => void (window.location.hash = `#/vault?q=${encodeURIComponent(typed)}`) },
        {
          id: 'inbox:capture',
          title: `Capture “${typed.length > 60 ? typed.slice(0, 59) + '…' : typed}” to the inbox`,
          hint: 'capture',
          keywords: typed,
          run: async () => {
            try {
              await call(routes.inbox.capture, { body: { text: typed } });
              toasts.show({ title: 'Captured to the inbox' });
            } catch (e) {
              fail(e);
            }
          },
        },
      );
    } else {
      list.push({ id: 'inbox:capture-empty', title: 'Capture… (type the text first)', hint: 'capture', keywords: 'note save', run: () => input.current?.focus() });
    }
    return list;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);

  const ranked = useMemo(() => {
    const typed = query.trim();
    return commands
      .map((c) => {
        // Actions on the typed text always match, below pages and actions that match it well.
        if (typed && c.keywords === typed) return { c, score: 1, at: [] as number[] };
        const m = fuzzyScore(typed, c.title) ?? (c.keywords && fuzzyScore(typed, c.keywords) ? { score: 0.5, at: [] } : undefined);
        return m ? { c, score: m.score, at: m.at } : undefined;
      })
      .filter((x): x is { c: PaletteCommand; score: number; at: number[] } => !!x)
      .sort((a, b) => b.score - a.score);
  }, [commands, query]);

  useEffect(() => {
    setCursor(0);
  }, [query]);

  const run = (c: PaletteCommand | undefined) => {
    if (!c) return;
    setOpen(false);
    void c.run();
  };

  return (
    <dialog ref={dialog} className="palette" aria-label="Command palette" onClose={() => setOpen(false)} onClick={(e) => e.target === dialog.current && setOpen(false)}>
      <div
        className="palette-body"
        onKeyDown={(e) => {
          e.stopPropagation();
          const down = e.key === 'ArrowDown' || (e.ctrlKey && e.key === 'n');
          const up = e.key === 'ArrowUp' || (e.ctrlKey && e.key === 'p');
          if (down || up) {
            e.preventDefault();
            setCursor((c) => (ranked.length ? (c + (down ? 1 : -1) + ranked.length) % ranked.length : 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            run(ranked[cursor]?.c);
          } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
            e.preventDefault();
            setOpen(false);
          }
        }}
      >
        <input
          ref={input}
          className="input palette-input"
          placeholder="Type a command, a page, or text to search / capture…"
          aria-label="Command"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={ranked[cursor] ? `palette-${ranked[cursor].c.id}` : undefined}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <ul className="list palette-list" id="palette-list" role="listbox">
          {ranked.map(({ c, at }, i) => (
            <li
              key={c.id}
              id={`palette-${c.id}`}
              role="option"
              aria-selected={i === cursor}
              className={`palette-item ${i === cursor ? 'current' : ''}`}
              onMouseMove={() => setCursor(i)}
              onClick={() => run(c)}
            >
              <span className="palette-title">
                <Marked text={c.title} at={at} />
              </span>
              {c.hint && <span className="chip">{c.hint}</span>}
            </li>
          ))}
          {ranked.length === 0 && <li className="muted palette-none">No command matches “{query}”.</li>}
        </ul>
        <p className="muted palette-foot">
          <kbd>↑</kbd>/<kbd>↓</kbd> move · <kbd>Enter</kbd> run · <kbd>Esc</kbd> close
        </p>
      </div>
    </dialog>
  );
}
