import { useHub } from '../hub';

const LABEL = { connecting: 'Connecting…', connected: 'Connected', reconnecting: 'Reconnecting…', disconnected: 'Disconnected' } as const;

/** Live state of the hub connection to the owner. */
export function ConnectionIndicator() {
  const { status } = useHub();
  return (
    <div className={`conn conn-${status}`} data-testid="connection" data-status={status} role="status" aria-live="polite">
      <span className="conn-dot" aria-hidden="true" />
      {LABEL[status]}
    </div>
  );
}
