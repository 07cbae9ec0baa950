import type { SessionStatus } from '../../../../shared/contract/sessions';

const LABEL: Record<SessionStatus, string> = { queued: 'not started', running: 'running', done: 'done' };

export function StatusChip({ status }: { status: SessionStatus }) {
  return (
    <span className={`chip status status-${status}`} data-status={status}>
      <span className="status-dot" aria-hidden="true" />
      {LABEL[status]}
    </span>
  );
}
