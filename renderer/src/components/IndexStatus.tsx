import { useEffect, useState } from 'react';
import { call, routes } from '../api';
import { useHubEvent, useOnReconnect } from '../hub';
import { HubEvent, type IndexProgressDto } from '../../../shared/contract';

/** "indexing 12,300 / 50,000" while the vault's background index builds; nothing once ready. */
export function IndexStatus() {
  const [p, setP] = useState<IndexProgressDto | undefined>();
  const load = () => {
    call(routes.core.status)
      .then((s) => setP(s.index))
      .catch(() => undefined);
  };
  useEffect(load, []);
  useOnReconnect(load);
  useHubEvent(HubEvent.indexProgress, (x) => setP(x as IndexProgressDto));
  if (!p || p.state === 'ready') return null;
  const n = (x: number) => x.toLocaleString('en');
  const text = p.state === 'failed' ? 'vault indexing failed (see the log)' : p.total ? `indexing ${n(p.done)} / ${n(p.total)}` : 'indexing…';
  return (
    <div className="index-status" data-testid="index-status" data-state={p.state} role="status" aria-live="polite">
      {text}
    </div>
  );
}
