/**
 * The hub's contract (SignalR JSON protocol at `HUB_PATH`): every event the owner broadcasts and
 * every method a client may invoke, with their argument types, in one map.
 *
 * Naming: code refers to events and methods only through the camelCase keys of `HubEvent` /
 * `HubMethod` (never a string literal). The values are the **wire names**, PascalCase as the
 * SignalR protocol's clients expect them — events `<Subject><What happened>` (`TaskMessageQueued`,
 * `MailChanged`), methods a verb phrase (`SendTaskMessage`, `Ping`). Wire names are part of the
 * protocol external clients (the official SignalR client, the session hook, scripts) speak:
 * renaming one breaks them, so they stay as they are even where a key reads differently.
 */
import type { AdapterStatus, Distribution } from './router';
import type { MessagePriority, SessionDto } from './sessions';
import type { MailChanged, MailImportProgress, MailSync } from './mail';
import type { IndexProgressDto } from './core';

export const HUB_PATH = '/hubs/mailbox';

export const HubEvent = {
  /** (reason, count) — the inbox folder changed or new analyses are ready. */
  inboxChanged: 'InboxChanged',
  /** ({ title, body }) — a notification the renderer shows as a toast / web notification. */
  notification: 'Notification',
  /** (IndexProgressDto) — the vault's background index advanced (at most ~5 a second) or finished. */
  indexProgress: 'IndexProgress',
  /** ({ key, count, total }) — an unread badge changed. */
  badgeChanged: 'BadgeChanged',
  /** (MailChanged) — threads, drafts or the outbox of an inbox changed. */
  mailChanged: 'MailChanged',
  /** (MailImportProgress) — progress of one upload or import. */
  mailImportProgress: 'MailImportProgress',
  /** (MailSync) — the IMAP sync state of an inbox. */
  mailSync: 'MailSync',
  /** (sessionId, pendingCount) — a message was queued for a session (any origin). */
  taskMessageQueued: 'TaskMessageQueued',
  /** (sessionId, pendingCount) — a session pulled its messages. */
  taskMessageDelivered: 'TaskMessageDelivered',
  /** (task) — a session was created or its status changed. */
  taskUpdated: 'TaskUpdated',
  /** (sessionId) — a session was removed. */
  taskRemoved: 'TaskRemoved',
  /** (AdapterStatus) — an MCP adapter's process changed state. */
  routerAdapterStatus: 'RouterAdapterStatus',
  /** (Distribution) — one routing attempt, as it is logged. */
  routerDistribution: 'RouterDistribution',
} as const;
export type HubEventName = (typeof HubEvent)[keyof typeof HubEvent];

export interface NotificationDto {
  title: string;
  body: string;
}
export interface BadgeChangedDto {
  key: string;
  count: number;
  total: number;
}

/** The arguments each event carries. */
export interface HubEventArgs {
  InboxChanged: [reason: string, count: number];
  Notification: [notification: NotificationDto];
  IndexProgress: [progress: IndexProgressDto];
  BadgeChanged: [badge: BadgeChangedDto];
  MailChanged: [change: MailChanged];
  MailImportProgress: [progress: MailImportProgress];
  MailSync: [sync: MailSync];
  TaskMessageQueued: [sessionId: string, pending: number];
  TaskMessageDelivered: [sessionId: string, pending: number];
  TaskUpdated: [task: SessionDto];
  TaskRemoved: [sessionId: string];
  RouterAdapterStatus: [status: AdapterStatus];
  RouterDistribution: [row: Distribution];
}

export const HubMethod = {
  /** () => { now: ISO string } */
  ping: 'Ping',
  /** (sessionId, body, priority? | { priority? }) => message id */
  sendTaskMessage: 'SendTaskMessage',
} as const;
export type HubMethodName = (typeof HubMethod)[keyof typeof HubMethod];

/** Arguments and result of each hub method. */
export interface HubMethods {
  Ping: { args: []; result: { now: string } };
  SendTaskMessage: { args: [sessionId: string, body: string, priority?: MessagePriority | { priority?: MessagePriority }]; result: number };
}
