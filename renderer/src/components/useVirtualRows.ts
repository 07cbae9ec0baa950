import { useCallback, useEffect, useLayoutEffect, useState, type RefObject } from 'react';

export interface VirtualRows {
  /** First row in the DOM. */
  start: number;
  /** One past the last row in the DOM. */
  end: number;
  /** Padding that stands for the rows above and below the ones in the DOM. */
  padTop: number;
  padBottom: number;
}

export interface VirtualRowsOptions {
  /** Rows kept in the DOM above and below the visible ones. */
  overscan?: number;
  /** Called when the rows in view come within `nearEnd` rows of the last loaded one (page in more). */
  onNearEnd?: () => void;
  nearEnd?: number;
  /** Changes when a fetch settles, so the list asks again if it is still near its end. */
  recheck?: unknown;
  /** The index to keep in view (keyboard navigation may pick a row that is not in the DOM yet). */
  active?: number;
  /** Changes when the list's element is (re)mounted, so listeners attach to the new one. */
  mountKey?: unknown;
}

/**
 * A list of fixed-height rows over any number of items: only the rows in view (plus `overscan`)
 * are rendered, the rest is padding of the right height. The scroll box is the list's parent
 * element. Measures on scroll and resize, asks for more rows near the end, and scrolls the
 * active row into view.
 */
export function useVirtualRows(listRef: RefObject<HTMLElement | null>, count: number, rowHeight: number, opts: VirtualRowsOptions = {}): VirtualRows {
  const overscan = opts.overscan ?? 8;
  const key = opts.mountKey;
  const [measured, setRange] = useState({ key, start: 0, end: 20 });
  // A new list (another key) starts at its top until it is measured, never with the old list's range.
  const range = measured.key === key ? measured : { key, start: 0, end: 20 };

  const measure = useCallback(() => {
    const list = listRef.current;
    const box = list?.parentElement;
    if (!list || !box) return;
    const top = box.getBoundingClientRect().top - list.getBoundingClientRect().top;
    const start = Math.max(0, Math.floor(top / rowHeight) - overscan);
    const end = Math.ceil((top + box.clientHeight) / rowHeight) + overscan;
    setRange((r) => (r.key === key && r.start === start && r.end === end ? r : { key, start, end }));
  }, [listRef, rowHeight, overscan, key]);

  useLayoutEffect(() => {
    const box = listRef.current?.parentElement;
    if (!box) return;
    measure();
    box.addEventListener('scroll', measure, { passive: true });
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    ro?.observe(box);
    return () => {
      box.removeEventListener('scroll', measure);
      ro?.disconnect();
    };
  }, [measure, listRef]);

  const { onNearEnd, nearEnd = 50, recheck } = opts;
  useEffect(() => {
    if (count > 0 && range.end + nearEnd >= count) onNearEnd?.();
  }, [range.end, count, nearEnd, onNearEnd, recheck]);

  const { active } = opts;
  useEffect(() => {
    const list = listRef.current;
    const box = list?.parentElement;
    if (!list || !box || active === undefined || active < 0 || active >= count) return;
    // The row's top in the scroll box's content (whatever the box's positioning).
    const rowTop = list.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop + active * rowHeight;
    if (rowTop < box.scrollTop) box.scrollTop = rowTop;
    else if (rowTop + rowHeight > box.scrollTop + box.clientHeight) box.scrollTop = rowTop + rowHeight - box.clientHeight;
  }, [active, count, listRef, rowHeight]);

  const end = Math.min(count, range.end);
  const start = Math.min(range.start, end);
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight };
}
