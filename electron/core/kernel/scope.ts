/**
 * A disposal scope: what a domain starts (timers, watchers, child processes, sockets) is
 * registered here, and `dispose()` ends all of it in reverse order — after the domain's own
 * `stop()`, so nothing a domain forgot keeps the process alive or fires after shutdown.
 */
export interface Scope {
  readonly name: string;
  /** Aborted when the scope is disposed (pass it to fetch, child_process, clock.sleep). */
  readonly signal: AbortSignal;
  /** Registers a clean-up; runs once, in reverse order of registration, on dispose. */
  add(dispose: () => void | Promise<void>): void;
  /** setTimeout owned by the scope (cleared on dispose). */
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  /** setInterval owned by the scope (cleared on dispose). */
  setInterval(fn: () => void, ms: number): NodeJS.Timeout;
  /** A scope disposed with (and before) this one. */
  child(name: string): Scope;
  /** True once dispose() has begun. */
  readonly disposed: boolean;
  dispose(): Promise<void>;
}

export function createScope(name: string, onError: (name: string, error: unknown) => void = () => undefined): Scope {
  const disposers: Array<() => void | Promise<void>> = [];
  const timers = new Set<NodeJS.Timeout>();
  const abort = new AbortController();
  let disposed = false;
  const scope: Scope = {
    name,
    signal: abort.signal,
    get disposed() {
      return disposed;
    },
    add(fn) {
      if (disposed) {
        void Promise.resolve()
          .then(fn)
          .catch((e: unknown) => onError(name, e));
        return;
      }
      disposers.push(fn);
    },
    setTimeout(fn, ms) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      if (disposed) clearTimeout(t);
      else timers.add(t);
      return t;
    },
    setInterval(fn, ms) {
      const t = setInterval(fn, ms);
      if (disposed) clearInterval(t);
      else timers.add(t);
      return t;
    },
    child(childName) {
      const c = createScope(`${name}/${childName}`, onError);
      scope.add(() => c.dispose());
      return c;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      abort.abort();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const fn of disposers.splice(0).reverse()) {
        try {
          await fn();
        } catch (e) {
          onError(name, e);
        }
      }
    },
  };
  return scope;
}
