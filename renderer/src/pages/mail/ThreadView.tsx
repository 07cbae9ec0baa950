import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, call, routes } from '../../api';
import { HubEvent } from '../../../../shared/contract';
import { useHubEvent } from '../../hub';
import { DraftEditor } from './DraftEditor';
import { who, when } from './format';
import type { MessageView, ThreadDetail, Triage } from '../../../../shared/contract/mail';
import type { BodyOf } from '../../../../shared/contract';

/** An intent or urgency change, as the relabel route takes it. */
type RelabelPatch = BodyOf<typeof routes.mail.relabel>;

/**
 * Sanitised HTML in a sandboxed iframe: no scripts, no same-origin, and a CSP that allows no
 * network at all, so even markup the sanitiser missed cannot load remote content.
 */
function HtmlBody({ html }: { html: string }) {
  const doc = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"><style>body{font:14px/1.5 system-ui,sans-serif;margin:0;color:#1c2230;background:#fff;word-wrap:break-word}img{max-width:100%}</style></head><body>${html}</body></html>`;
  const [h, setH] = useState(160);
  return <iframe className="mail-html" title="Message" sandbox="allow-same-origin" srcDoc={doc} style={{ height: h }} onLoad={(e) => setH(Math.min(900, (e.currentTarget.contentDocument?.body.scrollHeight ?? 140) + 24))} />;
}

/** Triage as chips; `compact` (the thread list) shows intent and urgency only. */
export function TriageChips({ t, compact }: { t: Triage | null; compact?: boolean }) {
  if (!t) return null;
  return (
    <span className="mail-chips" data-testid="triage-chips">
      <span className="chip mail-intent">{t.intent}</span>
      <span className={`chip urgency-${t.urgency}`}>{t.urgency} urgency</span>
      {!compact && <span className="chip">{t.sentiment}</span>}
      {!compact && t.suggested_route && <span className="chip">→ {t.suggested_route.replace(/^vault:/, '')}</span>}
    </span>
  );
}

/** Correct a triage: the change is stored and used as a labelled example the next time. */
function Relabel({ m, onRelabel }: { m: MessageView; onRelabel(patch: RelabelPatch): void }) {
  const [intents, setIntents] = useState<string[]>([]);
  const tax = m.triage?.taxonomy_id ?? 'default';
  useEffect(() => {
    let live = true;
    call(routes.mail.taxonomy, { params: { id: tax } })
      .then((r) => live && setIntents(r.intents.map((i) => i.id)))
      .catch(() => live && setIntents([]));
    return () => {
      live = false;
    };
  }, [tax]);
  if (!m.triage) return null;
  return (
    <span className="mail-relabel" data-testid="mail-relabel">
      <select className="input" aria-label="Relabel intent" value={m.triage.intent} onChange={(e) => onRelabel({ intent: e.target.value, taxonomy_id: tax })}>
        {[...new Set([m.triage.intent, ...intents])].map((i) => (
          <option key={i} value={i}>
            {i}
          </option>
        ))}
      </select>
      <select className="input" aria-label="Relabel urgency" value={m.triage.urgency} onChange={(e) => onRelabel({ urgency: e.target.value as Triage['urgency'], taxonomy_id: tax })}>
        {['low', 'medium', 'high'].map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
      {m.triage.relabelled ? <span className="muted">corrected</span> : null}
    </span>
  );
}

function Message({ m, onTriage, onRelabel, onForward }: { m: MessageView; onTriage(): void; onRelabel(patch: RelabelPatch): void; onForward(): void }) {
  return (
    <article className={`card mail-message ${m.direction}`} data-testid="mail-message">
      <header className="mail-message-head">
        <b>{who(m.from)}</b>
        <span className="muted"> to {m.to.map(who).join(', ') || '—'}</span>
        <span className="muted mail-when">{when(m.created_at)}</span>
      </header>
      <div className="toolbar">
        <TriageChips t={m.triage} />
        {m.direction === 'inbound' && m.triage && <Relabel m={m} onRelabel={onRelabel} />}
        <span className="mail-spacer" />
        {m.direction === 'inbound' && (
          <button className="btn btn-small" onClick={onTriage} title={m.triage ? 'Messages are triaged when they arrive; run it again (e.g. after editing the taxonomy)' : 'Triage this message'}>
            {m.triage ? 'Re-triage' : 'Triage'}
          </button>
        )}
        <button className="btn btn-small" onClick={onForward} title="Forward (f forwards the latest message)">
          Forward
        </button>
      </div>
      {m.html ? <HtmlBody html={m.html} /> : <pre className="mail-text">{m.text}</pre>}
      {m.remote_content && <p className="muted mail-note">Remote images and tracking pixels in this message were blocked.</p>}
      {m.attachments.length > 0 && (
        <ul className="list toolbar">
          {m.attachments.map((a, i) => (
            <li key={i} className="chip">
              📎 {a.filename} <span className="muted">{Math.ceil(a.size / 1024)} KB</span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/** A keyboard command from the Mail page for the open thread (`n` makes each press a new one). */
export interface ThreadCommand {
  kind: 'reply' | 'forward' | 'close';
  n: number;
}

export function ThreadView({
  threadId,
  policies,
  toast,
  onForward,
  command,
}: {
  threadId: string;
  policies: string[];
  toast(msg: string): void;
  onForward(m: MessageView): void;
  command?: ThreadCommand | null;
}) {
  const [d, setD] = useState<ThreadDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [snooze, setSnooze] = useState('');

  const load = useCallback(async () => {
    try {
      setD(await call(routes.mail.thread, { params: { id: threadId } }));
      setError(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  }, [threadId]);

  useEffect(() => {
    void load();
    void call(routes.mail.threadSeen, { params: { id: threadId } }).catch(() => {});
  }, [threadId, load]);
  useHubEvent(HubEvent.mailChanged, (p) => {
    if (!p.thread_id || p.thread_id === threadId) void load();
  });

  const act = async (fn: () => Promise<unknown>, ok?: string) => {
    try {
      await fn();
      if (ok) toast(ok);
      await load();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  // Keyboard commands: r focuses the reply, f forwards the latest message, e closes the thread.
  // A command given before this thread opened is not for it.
  const handled = useRef(command?.n ?? 0);
  useEffect(() => {
    if (!command || !d || command.n === handled.current) return;
    handled.current = command.n;
    if (command.kind === 'reply') {
      const el = document.querySelector<HTMLElement>('[data-testid="draft-editor"] textarea, [data-testid="draft-editor"] input');
      el?.scrollIntoView({ block: 'nearest' });
      el?.focus();
    } else if (command.kind === 'forward') {
      const last = d.messages[d.messages.length - 1];
      if (last) onForward(last);
    } else if (command.kind === 'close' && d.thread.status !== 'closed') {
      void act(() => call(routes.mail.updateThread, { params: { id: d.thread.id }, body: { status: 'closed' } }), 'Closed.');
    }
  });

  if (error && !d) return <p className="error">{error}</p>;
  if (!d) return <p className="muted">Loading…</p>;
  const t = d.thread;
  return (
    <div className="mail-thread" data-testid="thread-view">
      <div className="mail-thread-head">
        <h2>{t.subject || '(no subject)'}</h2>
        <div className="toolbar">
          <span className={`chip status-${t.status}`}>{t.status === 'snoozed' && t.snooze_until ? `snoozed until ${when(t.snooze_until)}` : t.status}</span>
          {t.labels.map((l) => (
            <span key={l} className="chip">
              {l}
            </span>
          ))}
          <span className="mail-spacer" />
          {t.status !== 'open' && (
            <button className="btn btn-small" onClick={() => void act(() => call(routes.mail.updateThread, { params: { id: t.id }, body: { status: 'open' } }))}>
              Reopen
            </button>
          )}
          {t.status !== 'closed' && (
            <button className="btn btn-small" title="Close (e)" onClick={() => void act(() => call(routes.mail.updateThread, { params: { id: t.id }, body: { status: 'closed' } }))}>
              Close
            </button>
          )}
          <input className="input mail-snooze" type="datetime-local" value={snooze} onChange={(e) => setSnooze(e.target.value)} aria-label="Snooze until" />
          <button className="btn btn-small" disabled={!snooze} onClick={() => void act(() => call(routes.mail.updateThread, { params: { id: t.id }, body: { status: 'snoozed', snooze_until: new Date(snooze).toISOString() } }), 'Snoozed.')}>
            Snooze
          </button>
          <button className="btn btn-small" onClick={() => void act(() => call(routes.mail.threadToInbox, { params: { id: t.id } }), 'Saved to the inbox for review.')}>
            Save to inbox
          </button>
        </div>
        <p className="muted mail-summary">{d.summary}</p>
      </div>
      {error && <p className="error">{error}</p>}
      {d.messages.map((m) => (
        <Message
          key={m.id}
          m={m}
          onForward={() => onForward(m)}
          onTriage={() => void act(() => call(routes.mail.triage, { params: { id: m.id }, body: { taxonomy_id: 'default' } }), 'Triaged again.')}
          onRelabel={(patch) => void act(() => call(routes.mail.relabel, { params: { id: m.id }, body: patch }), 'Relabelled; similar mail will follow it.')}
        />
      ))}
      <DraftEditor threadId={t.id} drafts={d.drafts} outbox={d.outbox} policies={policies} onChanged={(msg) => void act(async () => {}, msg)} />
    </div>
  );
}
