import crypto from 'node:crypto';
import type { SampleRequest } from '../../kernel/types';
import { MailroomError, invalidArgument } from '../../kernel/errors';
import { generateDraft, needsApproval, policyRiskFlags, replyRecipients, replyTarget } from './draft';
import { messageFacts } from './facts';
import type { MailPart } from './part';

export interface DraftRow {
  id: string;
  thread_id: string;
  policy_id: string;
  goal: string;
  body: string;
  risk_flags: string[];
  cited_message_ids: string[];
  needs_human_approval: boolean;
  approved_at: string | null;
  generator: string;
  status: 'draft' | 'approved' | 'sent' | 'discarded';
  created_at: string;
  updated_at: string;
}

export const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** Reply drafts under the person's policy: written, checked for risk, edited, approved, discarded. */
export class MailDrafts {
  constructor(private readonly p: MailPart) {}

  /** A `mail_drafts` row as a draft. */
  fromRow(r: Record<string, unknown>): DraftRow {
    return {
      id: r.id as string,
      thread_id: r.thread_id as string,
      policy_id: r.policy_id as string,
      goal: r.goal as string,
      body: r.body as string,
      risk_flags: JSON.parse(r.risk_flags as string) as string[],
      cited_message_ids: JSON.parse(r.cited as string) as string[],
      needs_human_approval: r.needs_approval === 1,
      approved_at: (r.approved_at as string | null) ?? null,
      generator: r.generator as string,
      status: r.status as DraftRow['status'],
      created_at: r.created_at as string,
      updated_at: r.updated_at as string,
    };
  }

  findDraft(id: string): DraftRow | undefined {
    const r = this.p.store.db.prepare<unknown[], Record<string, unknown>>('SELECT * FROM mail_drafts WHERE id = ?').get(id);
    return r ? this.fromRow(r) : undefined;
  }

  draft(id: string): DraftRow {
    const d = this.findDraft(id);
    if (!d) throw new MailroomError('draft_not_found', `No draft '${id}'.`, { draft_id: id }, 404);
    return d;
  }

  threadDrafts(threadId: string): DraftRow[] {
    return (this.p.store.db.prepare("SELECT * FROM mail_drafts WHERE thread_id = ? AND status != 'discarded' ORDER BY created_at DESC").all(threadId) as Record<string, unknown>[]).map((r) => this.fromRow(r));
  }

  private checks(threadId: string, body: string, policyId: string) {
    const t = this.p.store.thread(threadId);
    const ib = this.p.store.inbox(t.inbox_id);
    const policy = this.p.files.policy(policyId);
    const recipients = replyRecipients(replyTarget(this.p.store.threadMessages(t.id)));
    const flags = policyRiskFlags(body, policy, { inboxAddress: ib.address, recipients });
    return { flags, needs: needsApproval(policy, flags) };
  }

  async draftReply(a: { thread_id: string; policy_id: string; goal: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<DraftRow> {
    const t = this.p.store.thread(a.thread_id);
    const ib = this.p.store.inbox(t.inbox_id);
    const policy = this.p.files.policy(a.policy_id);
    if (!a.goal.trim()) throw invalidArgument('goal must say what the reply should achieve (e.g. "confirm the meeting on Tuesday").');
    const messages = this.p.store.threadMessages(t.id);
    const target = replyTarget(messages);
    if (policy.refuseAutomated && target && target.direction === 'inbound') {
      const facts = await messageFacts(target, this.p.store.messageRaw(target.id));
      if (facts.senderKind === 'automated') {
        throw new MailroomError(
          'automated_sender',
          `Policy '${policy.id}' says never to reply to automated senders, and ${target.from?.email ?? 'this sender'} is automated (${facts.automatedBy ?? 'automated'}). No draft was made.`,
          { thread_id: t.id, message_id: target.id, sender: target.from?.email ?? null, reason: facts.automatedBy ?? null },
          409,
        );
      }
    }
    const out = await generateDraft({ thread: t, messages, inbox: ib, policy, goal: a.goal, sample, llm: this.p.core.config.file.llm, signal });
    const flags = policyRiskFlags(out.body, policy, { inboxAddress: ib.address, recipients: out.recipients });
    const id = 'd_' + crypto.randomBytes(10).toString('hex');
    const now = this.p.iso();
    this.p.store.db
      .prepare(
        `INSERT INTO mail_drafts (id, thread_id, policy_id, goal, body, body_sha, risk_flags, cited, needs_approval, generator, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?)`,
      )
      .run(id, t.id, policy.id, a.goal, out.body, sha(out.body.trim()), JSON.stringify(flags), JSON.stringify(out.cited), needsApproval(policy, flags) ? 1 : 0, out.generator, now, now);
    this.p.changed(ib.id, 'draft', { thread_id: t.id, draft_id: id });
    return this.draft(id);
  }

  /** Edits re-run the policy checks and withdraw any approval: a person approves what is sent. */
  updateDraft(id: string, body: string): DraftRow {
    const d = this.draft(id);
    if (d.status === 'sent') throw new MailroomError('conflict', `Draft '${id}' was already sent; start a new draft.`, { draft_id: id }, 409);
    const { flags, needs } = this.checks(d.thread_id, body, d.policy_id);
    this.p.store.db
      .prepare("UPDATE mail_drafts SET body = ?, body_sha = ?, risk_flags = ?, needs_approval = ?, approved_at = NULL, status = 'draft', updated_at = ? WHERE id = ?")
      .run(body, sha(body.trim()), JSON.stringify(flags), needs ? 1 : 0, this.p.iso(), id);
    return this.draft(id);
  }

  approveDraft(id: string): DraftRow {
    const d = this.draft(id);
    if (d.status === 'sent') throw new MailroomError('conflict', `Draft '${id}' was already sent.`, { draft_id: id }, 409);
    this.p.store.db.prepare("UPDATE mail_drafts SET approved_at = ?, status = 'approved', updated_at = ? WHERE id = ?").run(this.p.iso(), this.p.iso(), id);
    return this.draft(id);
  }

  discardDraft(id: string): void {
    this.draft(id);
    this.p.store.db.prepare("UPDATE mail_drafts SET status = 'discarded', updated_at = ? WHERE id = ?").run(this.p.iso(), id);
  }
}
