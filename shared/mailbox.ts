/** The session mailbox's wire names and DTOs (seed 003), shared by the owner and the renderer. */

export const MailboxHubMethod = {
  /** (taskId, body, priority? | { priority? }) => message id */
  sendTaskMessage: 'SendTaskMessage',
} as const;

export const MailboxHubEvent = {
  /** (taskId: string, pendingCount: number) — a message was queued for a session (any origin). */
  taskMessageQueued: 'TaskMessageQueued',
  /** (taskId: string, pendingCount: number) — a session pulled its messages. */
  taskMessageDelivered: 'TaskMessageDelivered',
  /** (task: TaskDto) — a session was created or its status changed. */
  taskUpdated: 'TaskUpdated',
  /** (taskId: string) — a session was removed. */
  taskRemoved: 'TaskRemoved',
} as const;

export type TaskStatus = 'queued' | 'running' | 'done';
export type MessagePriority = 'normal' | 'high';

/** Largest message body, in UTF-8 bytes. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

export interface TaskDto {
  id: string;
  name: string;
  working_dir: string;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  /** Undelivered messages. */
  pending: number;
  /** Linked peer session ids. */
  peers: string[];
}

export interface TaskMessageDto {
  id: number;
  task_id: string;
  /** 'user' or 'task:<id>' */
  sender: string;
  body: string;
  priority: MessagePriority;
  created_at: string;
  delivered_at: string | null;
}

export interface CreateTaskBody {
  name: string;
  working_dir: string;
  peer?: string;
}

export interface SendMessageBody {
  body: string;
  priority?: MessagePriority;
}

export const sessionsPath = '/api/sessions';
