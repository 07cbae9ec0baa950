/**
 * The vault watcher thread: chokidar's set-up (a walk of the whole vault and a watch per note)
 * and its event handling run here, so the owner's event loop stays free to answer MCP and the
 * UI while a large vault is watched. Debounced batches of changed paths are posted to the owner.
 * Bundled as its own entry (out/cli/vault-watcher.mjs, out/main/vault-watcher.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { chokidarBatches, type OwnerToWatcher, type WatcherJob, type WatcherToOwner } from './watch';

const job = workerData as WatcherJob;
const post = (m: WatcherToOwner) => parentPort!.postMessage(m);
const b = chokidarBatches({
  root: job.root,
  debounceMs: job.debounceMs,
  stabilityMs: job.stabilityMs,
  onBatch: (paths, dirs) => post({ type: 'batch', paths, dirs }),
  onError: (e) => post({ type: 'error', message: String((e as Error)?.message ?? e) }),
});
void b.ready.then(() => post({ type: 'ready' }));
parentPort!.on('message', (m: OwnerToWatcher) => {
  if (m.type === 'flush') {
    void b.ready
      .then(() => b.idle())
      .then(() => post({ type: 'flushed', id: m.id }));
  } else if (m.type === 'close') {
    void b.close().finally(() => post({ type: 'closed' }));
  }
});
