import { useHub } from '../hub';

const LABEL = { connecting: 'Connecting…', connected: 'Connected', reconnecting: 'Reconnecting…', disconnected: 'Disconnected', stopped: 'Mailroom stopped', unauthorized: 'Link out of date' } as const;

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

/**
 * Across the top of every page when the owner is gone: what happened and how to get back. A tab
 * cannot learn a new port by itself (that would let any local program lure it), so it says how to
 * reopen; a restart on the same address reconnects without a click.
 */
export function ConnectionBanner() {
  const { status } = useHub();
  if (status === 'stopped') {
    return (
      <div className="conn-banner" role="alert" data-testid="stopped-banner">
        <strong>Mailroom stopped.</strong> Start it again with <code>npm start</code> (or <code>mailroom start</code>) — this tab reconnects by itself when it is back at this
        address. If it comes back on another port, run <code>mailroom open</code> to open the new address.
      </div>
    );
  }
  if (status === 'unauthorized') {
    return (
      <div className="conn-banner" role="alert" data-testid="stopped-banner">
        <strong>This tab&apos;s link is out of date.</strong> Another Mailroom answers at this address. Run <code>mailroom open</code> to open the right one.
      </div>
    );
  }
  return null;
}
