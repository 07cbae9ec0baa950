import { useEffect, useState, type KeyboardEvent } from 'react';
import { HubConnectionState } from '@microsoft/signalr';
import { ApiError, call, routes } from '../../api';
import { useHub } from '../../hub';
import { HubMethod } from '../../../../shared/contract/hub';
import type { MessagePriority } from '../../../../shared/contract/sessions';

const draftKey = (sessionId: string) => `mailroom.sessions.draft.${sessionId}`;

function hubErrorMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  // Hub completion errors carry the JSON error shape after the client's prefix.
  const json = text.slice(text.indexOf('{'));
  try {
    return (JSON.parse(json) as { message: string }).message;
  } catch {
    return text;
  }
}

/** The send-to-session box: Enter sends, Shift+Enter is a new line; the draft survives navigation. */
export function Composer({ sessionId, disabled }: { sessionId: string; disabled?: boolean }) {
  const { connection } = useHub();
  const [text, setText] = useState(() => sessionStorage.getItem(draftKey(sessionId)) ?? '');
  const [priority, setPriority] = useState<MessagePriority>('normal');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setText(sessionStorage.getItem(draftKey(sessionId)) ?? '');
    setError(null);
  }, [sessionId]);

  const update = (v: string) => {
    setText(v);
    if (v) sessionStorage.setItem(draftKey(sessionId), v);
    else sessionStorage.removeItem(draftKey(sessionId));
  };

  const send = async () => {
    if (!text.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      if (connection.state === HubConnectionState.Connected) await connection.invoke(HubMethod.sendTaskMessage, sessionId, text, priority);
      else await call(routes.sessions.send, { params: { id: sessionId }, body: { body: text, priority } });
      update('');
      setPriority('normal');
    } catch (e) {
      setError(e instanceof ApiError ? e.message : hubErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <div className="composer">
      <textarea
        className="input composer-input"
        data-testid="composer"
        aria-label="Message to this session"
        placeholder="Message this session… (markdown; Enter sends, Shift+Enter for a new line)"
        value={text}
        rows={3}
        disabled={disabled}
        onChange={(e) => update(e.target.value)}
        onKeyDown={onKey}
      />
      <div className="toolbar composer-bar">
        <label className={`chip priority-toggle ${priority === 'high' ? 'chip-high' : ''}`}>
          <input type="checkbox" checked={priority === 'high'} onChange={(e) => setPriority(e.target.checked ? 'high' : 'normal')} /> High priority
        </label>
        <span className="muted composer-hint">Enter sends · Shift+Enter new line</span>
        <button className="btn btn-primary" onClick={() => void send()} disabled={busy || disabled || !text.trim()}>
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
