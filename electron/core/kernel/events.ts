import { EventEmitter } from 'node:events';

/**
 * In-process events between domains (e.g. `vault:changed`, `inbox:analyzed`). Names are
 * `<domain>:<event>`; payloads are plain objects. Hub broadcasts to clients are separate.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(100);
  }
  on<T = unknown>(event: string, listener: (payload: T) => void): () => void {
    this.emitter.on(event, listener as (p: unknown) => void);
    return () => this.emitter.off(event, listener as (p: unknown) => void);
  }
  emit<T = unknown>(event: string, payload: T): void {
    this.emitter.emit(event, payload);
  }
  /** Resolves with the next payload of `event` (tests and awaiting start-up). */
  once<T = unknown>(event: string, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out waiting for ${event}`));
      }, timeoutMs);
      const off = this.on<T>(event, (p) => {
        clearTimeout(timer);
        off();
        resolve(p);
      });
    });
  }
}
