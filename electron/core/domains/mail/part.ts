import type { CoreContext } from '../../kernel/types';
import type { MailConfigFiles } from './config';
import type { InboxSaveDep, RouterDep } from './deps';
import type { Nlp } from '../nlp';
import type { MailStore } from './store';
import type { Urgency, UrgencyModel, UrgencyVerdict } from './urgency';

/** What mail needs from other domains (each optional: mail builds and runs without them). */
export interface MailDeps {
  nlp?: Nlp;
  inbox?: InboxSaveDep;
  router?: RouterDep;
  /** Urgency weights other than the shipped ones (bench, tests), and a listener for every verdict. */
  urgency?: {
    model?: UrgencyModel;
    observe?: (v: UrgencyVerdict) => void;
    /** The mail urgency head to use instead of the nlp domain's (bench folds); null: none. */
    head?: ((text: string) => Promise<Record<Urgency, number> | undefined>) | null;
  };
}

/**
 * What every part of the mail domain shares, built once by `MailService`: the core's context,
 * the store, the person's config files, the other domains, and how to tell the UI.
 */
export interface MailPart {
  readonly core: CoreContext;
  readonly store: MailStore;
  readonly files: MailConfigFiles;
  readonly deps: MailDeps;
  /** Tells the UI (hub) and refreshes the unread badge. */
  changed(inboxId: string, reason: string, extra?: Record<string, unknown>): void;
  /** Now, as an ISO timestamp from the core's clock. */
  iso(): string;
  /** Aborted by the service's stop(): every wait a part starts ends with it. */
  lifetime(): AbortSignal;
}
