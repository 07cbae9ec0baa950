import { useCallback, useEffect, useState } from 'react';
import { ApiError, call, routes } from '../../api';
import { HubEvent } from '../../../../shared/contract';
import { useHubEvent } from '../../hub';
import { DraftEditor } from './DraftEditor';
import { who, when } from './format';
import type { MessageView, ThreadDetail, Triage } from '../../../../shared/contract/mail';

/**
 * Sanitised HTML in a sandboxed iframe: no scripts, no same-origin, and a CSP that allows no
 * network at all, so even markup the sanitiser missed cannot load remote content.
 */
function HtmlBody({ html }: { html: string }) {
  const doc = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"><style>body{font:14px/1.5 system-ui,sans-serif;margin:0;color:#1c2230;background:#fff;word-wrap:break-word}img{max-width:100%}</style></head><body>${html}</body></html>`;
  const [h, setH] = useState(160);
  return <iframe className="mail-html" title="Message" sandbox="allow-same-origin" srcDoc={doc} style={{ height: h }} onLoad={(e) => setH(Math.min(900, (e.currentTarget.contentDocument?.body.scrollHeight ?? 140) + 24))} />;
}

export function TriageChips({ t }: { t: Triage | null }) {
  if (!t) return null;
  return (
    <span className="mail-chips">
      <span className="chip">{t.intent}</span>
      <span className={`chip urgency-${t.urgency}`}>{t.urgency} urgency</span>
      <span className="chip">{t.sentiment}</span>
      {t.suggested_route && <span className="chip">→ {t.suggested_route.replace(/^vault:/, '')}</span>}
    </span>
  );
}

/** Correct a triage: the change is stored and used as a labelled example the next time. */
function Relabel({ m, onRelabel }: { m: MessageView; onRelabel(patch: { intent?: string; urgency?: string; taxonomy_id: string }): void }) {
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
      <select className="input" aria-label="Relabel urgency" value={m.triage.urgency} onChange={(e) => onRelabel({ urgency: e.target.value, taxonomy_id: tax })}>
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

function Message({ m, onTriage, onRelabel }: { m: MessageView; onTriage(): void; onRelabel(patch: { intent?: string; urgency?: string; taxonomy_id: string }): void }) {
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
        {m.direction === 'inbound' && !m.triage && (
          <button className="btn btn-small" onClick={onTriage}>
            Triage
          </button>
        )}
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

export function ThreadView({ threadId, policies, toast }: { threadId: string; policies: string[]; toast(msg: string): void }) {
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
            <button className="btn btn-small" onClick={() => void act(() => call(routes.mail.updateThread, { params: { id: t.id }, body: { status: 'closed' } }))}>
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
          onTriage={() => void act(() => call(routes.mail.triage, { params: { id: m.id }, body: { taxonomy_id: 'default' } }))}
          onRelabel={(patch) => void act(() => call(routes.mail.relabel, { params: { id: m.id }, body: patch }), 'Relabelled; similar mail will follow it.')}
        />
      ))}
      <DraftEditor threadId={t.id} drafts={d.drafts} outbox={d.outbox} policies={policies} onChanged={(msg) => void act(async () => {}, msg)} />
    </div>
  );
}
