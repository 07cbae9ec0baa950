import { useEffect, useRef } from 'react';

/**
 * A tiny in-page command bus: the palette runs a named command; the page that offers it
 * registers a handler while mounted. A command run before its page is ready (e.g. right after
 * navigating there) waits for it — for a few seconds, then it is dropped.
 */
const handlers = new Map<string, () => void>();
const pending = new Map<string, number>();
const WAIT_MS = 5000;

export function runCommand(name: string): void {
  const h = handlers.get(name);
  if (h) h();
  else pending.set(name, Date.now());
}

export function useCommand(name: string, handler: () => void, ready = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!ready) return;
    const fn = () => ref.current();
    handlers.set(name, fn);
    const at = pending.get(name);
    if (at !== undefined) {
      pending.delete(name);
      if (Date.now() - at < WAIT_MS) fn();
    }
    return () => {
      if (handlers.get(name) === fn) handlers.delete(name);
    };
  }, [name, ready]);
}
