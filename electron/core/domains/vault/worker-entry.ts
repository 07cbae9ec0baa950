import { workerEntry as kernelWorkerEntry } from '../../kernel/worker-entry';

/** Where a vault worker's entry is (see kernel/worker-entry): sources are relative to this folder. */
export function workerEntry(bundled: string, source: string): { file: URL | string; eval?: boolean } | undefined {
  return kernelWorkerEntry(bundled, source, import.meta.url);
}
