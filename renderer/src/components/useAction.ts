import { useCallback, useState } from 'react';
import { errorText } from '../api';

/**
 * One busy flag for a form's buttons and a runner for each of them: `run('save', work, show)` marks
 * the form busy with 'save', clears the previous result, awaits the work and shows what it returned
 * — or, when it failed, the error as text, in the same place.
 */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const run = useCallback(async <R>(name: string, work: () => Promise<R>, show: (result: NoInfer<R> | string | null) => void): Promise<void> => {
    setBusy(name);
    show(null);
    try {
      show(await work());
    } catch (err) {
      show(errorText(err));
    } finally {
      setBusy(null);
    }
  }, []);
  return { busy, run };
}
