/**
 * Requests someone is waiting on (a REST call, an MCP tool call; not a long-lived event stream),
 * counted by the HTTP transport, so background work — triage after a big import — steps aside
 * while one is in flight: a request takes several turns of the event loop (headers, body, the
 * handler's awaits, the response), and a background slice between each turn added up to the
 * request's latency. One count per process: several owners in one process (tests) only make
 * background work more polite.
 */
let inflight = 0;
let waiters: Array<() => void> = [];

/** Marks one interactive request as started; call the returned function when it has ended (idempotent). */
export function beginInteractive(): () => void {
  inflight++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inflight--;
    if (inflight === 0) {
      const woken = waiters;
      waiters = [];
      for (const w of woken) w();
    }
  };
}

/** How many interactive requests are in flight. */
export function interactiveInflight(): number {
  return inflight;
}

/**
 * Resolves at once when no interactive request is in flight, else when the last one ends or after
 * `maxMs` (so a stuck request never stops background work for long). Leaves no timer behind.
 */
export function whenNoInteractive(maxMs = 250): Promise<void> {
  if (inflight === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiters = waiters.filter((w) => w !== done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    waiters.push(done);
  });
}
