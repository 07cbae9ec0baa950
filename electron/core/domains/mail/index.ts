export { mailCommands } from './cli';
import type { CoreContext, Domain } from '../../kernel/types';
import { completeFrom } from '../../kernel/complete';
import type { Nlp } from '../nlp';
import type { InboxSaveDep, RouterDep } from './deps';
import { mailResources } from './resources';
import { mailRoutes } from './routes';
import { MailService } from './service';
import { mailTools } from './tools/index';
import type { SentEntry } from './outbox';

export type { InboxSaveDep, RouterDep, MailRouteItem } from './deps';
export { MailService } from './service';
export { ContractValidator } from './schemas';

export interface MailDomain extends Domain {
  mail: MailService;
  /** The outbox's sent messages, read back (History). */
  journal: { sent(limit: number): SentEntry[]; sentOne(key: string): SentEntry | undefined };
}

/**
 * NeuralMail (seed 002): a local mail store (import, IMAP sync, threading, search), the seven
 * contract tools, the email:// resources, the Mail page's REST routes and the outbox.
 */
export function createMail(ctx: CoreContext, deps: { nlp?: Nlp; inbox?: InboxSaveDep; router?: RouterDep } = {}): MailDomain {
  const mail = new MailService(ctx, deps);
  return {
    name: 'mail',
    mail,
    journal: { sent: (limit) => (mail.ready() ? mail.outbox.sentLog(limit) : []), sentOne: (key) => (mail.ready() ? mail.outbox.sentEntry(key) : undefined) },
    tools: mailTools(mail),
    resourceTemplates: mailResources(mail),
    completions: {
      'mail.inbox': (typed) => (mail.ready() ? completeFrom(mail.store.listInboxes().map((ib) => ({ id: ib.id, labels: [ib.address, ib.name] })), typed) : []),
    },
    routes: mailRoutes(mail),
    counts: (): Record<string, number> => {
      if (!mail.ready()) return {};
      const c = mail.store.counts();
      return { mail_inboxes: c.inboxes, mail_threads: c.threads, mail_messages: c.messages };
    },
    start: () => mail.start(),
    stop: () => mail.stop(),
  };
}
export type { SentEntry } from './outbox';
