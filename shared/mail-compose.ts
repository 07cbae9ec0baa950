import { z } from 'zod';

/**
 * Compose and forward on the Mail page (REST bodies and reply), shared by the server's routes
 * and the renderer. From is always the inbox's own address, sent through its SMTP account.
 */

const Recipients = z.array(z.string().trim().min(1).max(320)).max(100);

/** POST /api/mail/inboxes/:id/send — a new message. */
export const MailSendBody = z
  .object({
    to: Recipients.min(1, 'Add at least one recipient (To).'),
    cc: Recipients.optional(),
    subject: z.string().max(998),
    body: z.string().max(1_000_000),
    /** One per message the person means to send (a retry with the same key never sends twice). */
    idempotency_key: z.string().trim().min(1).max(200),
  })
  .strict();
export type MailSendBody = z.infer<typeof MailSendBody>;

/** POST /api/mail/messages/:id/forward — forwards that message (its text quoted, its attachments along). */
export const MailForwardBody = MailSendBody.extend({ subject: z.string().max(998).optional() }).strict();
export type MailForwardBody = z.infer<typeof MailForwardBody>;

/** The reply of both: the outgoing message and, once sent and stored, its thread. */
export const MailSendResult = z.object({
  message_id: z.string(),
  status: z.enum(['queued', 'sent']),
  thread_id: z.string().nullable(),
});
export type MailSendResult = z.infer<typeof MailSendResult>;

/** Splits what a person typed in a To/Cc field ("a@x.org, b@y.org; c@z.org") into addresses. */
export function splitRecipients(s: string): string[] {
  return s
    .split(/[,;\s]+/)
    .map((x) => x.trim().replace(/^<|>$/g, ''))
    .filter(Boolean);
}

/** "Fwd: subject" unless it already is one. */
export const forwardSubject = (subject: string): string => (/^(fwd?|fw):/i.test(subject.trim()) ? subject.trim() : `Fwd: ${subject.trim()}`);
