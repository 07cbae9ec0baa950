import { useEffect, useRef, useState } from 'react';
import { ApiError, call, routes } from '../../api';
import { who, when } from './format';
import { forwardSubject, splitRecipients, type InboxView, type MailSendResult, type MessageView } from '../../../../shared/contract/mail';
import { FormFooter } from '../../components/FormFooter';

/** What the compose pane writes: a new message, or a forward of one message. */
export type ComposeMode = { kind: 'new' } | { kind: 'forward'; message: MessageView };

const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

/**
 * Compose a new message or forward one, from the inbox's own address through its SMTP account.
 * The idempotency key stays the same while the text does, so pressing Send again after a network
 * error never sends twice; an edited message gets a new key.
 */
export function Compose({ inbox, mode, onDone, onCancel }: { inbox: InboxView; mode: ComposeMode; onDone(r: MailSendResult, msg: string): void; onCancel(): void }) {
  const fwd = mode.kind === 'forward' ? mode.message : null;
  const [to, setTo] = useState('');
  const [cc, setCc] = useState('');
  const [subject, setSubject] = useState(fwd ? forwardSubject(fwd.subject) : '');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = useRef<{ key: string; sig: string } | null>(null);
  const toRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    toRef.current?.focus();
  }, []);

  const from = inbox.name ? `${inbox.name} <${inbox.address}>` : inbox.address;
  const canSend = !!inbox.smtp && inbox.status === 'active';

  const send = async () => {
    const payload = { to: splitRecipients(to), cc: splitRecipients(cc), subject: subject.trim(), body };
    if (!payload.to.length) return setError('Add at least one recipient (To).');
    const sig = JSON.stringify(payload);
    if (key.current?.sig !== sig) key.current = { key: newKey(), sig };
    setBusy(true);
    setError(null);
    try {
      const r = fwd
        ? await call(routes.mail.forward, { params: { id: fwd.id }, body: { ...payload, idempotency_key: key.current.key } })
        : await call(routes.mail.send, { params: { id: inbox.id }, body: { ...payload, idempotency_key: key.current.key } });
      onDone(r, r.status === 'sent' ? (fwd ? 'Forwarded.' : 'Sent.') : 'Queued; the outbox will retry.');
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card mail-compose"
      data-testid="compose"
      aria-label={fwd ? 'Forward' : 'New message'}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void send();
        }
      }}
    >
      <h2>{fwd ? 'Forward' : 'New message'}</h2>
      <label className="mail-compose-row">
        <span>From</span>
        <span className="mail-compose-from" data-testid="compose-from">
          {from}
          <span className="muted"> {inbox.smtp ? `via ${inbox.smtp.host}` : ''}</span>
        </span>
      </label>
      {!inbox.smtp && (
        <p className="error" role="alert">
          This inbox has no SMTP account, so it cannot send yet. Add one in <a href="#/settings/mail">Settings → Mail accounts</a>, then come back.
        </p>
      )}
      {inbox.status === 'paused' && <p className="error">This inbox is paused; resume it to send.</p>}
      <label className="mail-compose-row">
        <span>To</span>
        <input ref={toRef} className="input" value={to} onChange={(e) => setTo(e.target.value)} placeholder="name@example.com, another@example.com" aria-label="To" />
      </label>
      <label className="mail-compose-row">
        <span>Cc</span>
        <input className="input" value={cc} onChange={(e) => setCc(e.target.value)} aria-label="Cc" />
      </label>
      <label className="mail-compose-row">
        <span>Subject</span>
        <input className="input" value={subject} onChange={(e) => setSubject(e.target.value)} aria-label="Subject" />
      </label>
      <textarea className="input mail-draft-body" rows={fwd ? 6 : 12} value={body} onChange={(e) => setBody(e.target.value)} aria-label="Message" placeholder={fwd ? 'Add a note above the forwarded message' : ''} />
      {fwd && (
        <div className="mail-forwarded muted" data-testid="forwarded">
          <div>---------- Forwarded message ----------</div>
          <div>
            From: {who(fwd.from)} · {when(fwd.created_at)}
          </div>
          <div>Subject: {fwd.subject}</div>
          {fwd.attachments.length > 0 && <div>📎 {fwd.attachments.map((a) => a.filename).join(', ')} (sent along)</div>}
          <pre className="mail-text">{fwd.text.slice(0, 2000)}</pre>
        </div>
      )}
      <FormFooter error={error} busy={busy} blocked={!canSend} submit={busy ? 'Sending…' : 'Send'} submitTitle="Send (Ctrl+Enter)" onCancel={onCancel}>
        <span className="muted mail-compose-hint">Ctrl+Enter sends · Esc cancels</span>
      </FormFooter>
    </form>
  );
}
