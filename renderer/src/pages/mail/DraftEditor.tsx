import { useState } from 'react';
import { ApiError, call, routes } from '../../api';
import { flagText } from './format';
import type { DraftView, OutboxView } from '../../../../shared/contract/mail';

/** Draft a reply under a policy, edit it, see the policy's risk flags, approve and send. */
export function DraftEditor({ threadId, drafts, outbox, policies, onChanged }: { threadId: string; drafts: DraftView[]; outbox: OutboxView[]; policies: string[]; onChanged(msg?: string): void }) {
  const [goal, setGoal] = useState('');
  const [policy, setPolicy] = useState('default');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = drafts.find((d) => d.status !== 'sent' && d.status !== 'discarded');
  const [body, setBody] = useState<string | null>(null);
  const text = body ?? current?.body ?? '';

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const sentRows = outbox.filter((o) => o.status !== 'sent');
  return (
    <div className="card mail-draft" data-testid="draft-editor">
      <h2>Reply</h2>
      {!current && (
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await call(routes.mail.createDraft, { params: { id: threadId }, body: { goal, policy_id: policy } });
              setBody(null);
              setGoal('');
              onChanged();
            });
          }}
        >
          <input className="input mail-goal" placeholder="What should the reply achieve? e.g. confirm the meeting on Tuesday" value={goal} onChange={(e) => setGoal(e.target.value)} aria-label="Reply goal" />
          <select className="input mail-policy" value={policy} onChange={(e) => setPolicy(e.target.value)} aria-label="Policy">
            {(policies.length ? policies : ['default']).map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <button className="btn btn-primary" disabled={busy || !goal.trim()}>
            Draft reply
          </button>
        </form>
      )}
      {current && (
        <>
          <p className="muted">
            Policy <b>{current.policy_id}</b> · written by {current.generator === 'template' ? 'the policy template' : current.generator === 'sampling' ? 'your MCP client' : 'the configured LLM'}
            {current.approved_at ? ' · approved' : ''}
          </p>
          <textarea className="input mail-draft-body" rows={10} value={text} onChange={(e) => setBody(e.target.value)} aria-label="Draft text" />
          {current.risk_flags.length > 0 ? (
            <ul className="list mail-flags" aria-label="Risk flags">
              {current.risk_flags.map((f) => (
                <li key={f} className="chip mail-flag">
                  ⚠ This reply {flagText(f)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No policy risks found.</p>
          )}
          <div className="toolbar">
            {body !== null && body !== current.body && (
              <button
                className="btn"
                disabled={busy}
                onClick={() =>
                  void run(async () => {
                    await call(routes.mail.updateDraft, { params: { id: current.id }, body: { body: text } });
                    setBody(null);
                    onChanged('Draft saved; the policy checks ran again.');
                  })
                }
              >
                Save &amp; re-check
              </button>
            )}
            <button
              className="btn btn-primary"
              disabled={busy || (body !== null && body !== current.body)}
              title={body !== null && body !== current.body ? 'Save your edits first, so the checks cover what is sent' : undefined}
              onClick={() =>
                void run(async () => {
                  const r = await call(routes.mail.sendDraft, { params: { id: current.id } });
                  onChanged(r.status === 'sent' ? 'Reply sent.' : 'Reply queued; the outbox will retry.');
                })
              }
            >
              {current.needs_human_approval && !current.approved_at ? 'Approve & Send' : 'Send'}
            </button>
            <button
              className="btn btn-danger"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await call(routes.mail.deleteDraft, { params: { id: current.id } });
                  setBody(null);
                  onChanged();
                })
              }
            >
              Discard
            </button>
          </div>
        </>
      )}
      {sentRows.map((o) => (
        <p key={o.idempotency_key} className={o.status === 'queued' ? 'muted' : 'error'}>
          Outbox: {o.status}
          {o.last_error ? ` — ${o.last_error}` : ''}{' '}
          {(o.status === 'failed' || o.status === 'uncertain') && (
            <>
              <button className="btn btn-small" onClick={() => void run(async () => (await call(routes.mail.resolveOutbox, { params: { key: o.idempotency_key }, body: { action: 'retry' } }), onChanged()))}>
                Retry
              </button>{' '}
              <button className="btn btn-small" onClick={() => void run(async () => (await call(routes.mail.resolveOutbox, { params: { key: o.idempotency_key }, body: { action: 'mark_sent' } }), onChanged()))}>
                Mark sent
              </button>
            </>
          )}
        </p>
      ))}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
