import type { Migration } from '../open';
import { m001Core } from './001_core';
import { m002Inbox } from './002_inbox';
import { m003Mailbox } from './003_mailbox';
import { m004Router } from './004_router';
import { m005Mail } from './005_mail';
import { m006AdapterSecrets } from './006_adapter_secrets';
import { m007InboxLearning } from './007_inbox_learning';
import { m008MailRelabelled } from './008_mail_relabelled';

/**
 * The state DB's migrations, in order. One numbered file per migration; never edit one that
 * has shipped — add the next number. Each has a test that runs it on a DB at the previous version.
 */
export const stateMigrations: Migration[] = [m001Core, m002Inbox, m003Mailbox, m004Router, m005Mail, m006AdapterSecrets, m007InboxLearning, m008MailRelabelled];
