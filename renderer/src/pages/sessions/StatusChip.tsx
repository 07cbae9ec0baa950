import type { TaskStatus } from '../../../../shared/contract/mailbox';

const LABEL: Record<TaskStatus, string> = { queued: 'not started', running: 'running', done: 'done' };

export function StatusChip({ status }: { status: TaskStatus }) {
  return (
    <span className={`chip status status-${status}`} data-status={status}>
      <span className="status-dot" aria-hidden="true" />
      {LABEL[status]}
    </span>
  );
}
