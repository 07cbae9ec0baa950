import type { AdapterStatus } from '../../../../shared/contract/router';

/** idle / starting / running (pid) / failed (why), as a chip. */
export function StatusBadge({ status }: { status: AdapterStatus }) {
  const label = status.state === 'running' ? `running · pid ${status.pid}` : status.state;
  return (
    <span className={`chip adapter-state adapter-state-${status.state}`} data-testid="adapter-status" data-state={status.state} title={status.reason ?? undefined}>
      <span className="dot" aria-hidden="true" />
      {label}
    </span>
  );
}
