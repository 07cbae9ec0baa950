import { useEffect, useMemo, useRef } from 'react';
import type { SessionDto, SessionMessageDto } from '../../../../shared/contract/sessions';
import { renderMarkdown } from './markdown';

const time = (iso: string) => {
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : d.toLocaleString();
};

function senderName(sender: string, sessions: SessionDto[]): string {
  if (sender === 'user') return 'You';
  const id = sender.startsWith('task:') ? sender.slice(5) : sender;
  return sessions.find((s) => s.id === id)?.name ?? sender;
}

function Message({ m, sessions }: { m: SessionMessageDto; sessions: SessionDto[] }) {
  const html = useMemo(() => renderMarkdown(m.body), [m.body]);
  return (
    <li className={`msg ${m.delivered_at ? 'msg-delivered' : 'msg-waiting'} ${m.priority === 'high' ? 'msg-high' : ''}`} data-testid="timeline-message" data-delivered={m.delivered_at ? 'true' : 'false'}>
      <div className="msg-head">
        <strong className="msg-sender">{senderName(m.sender, sessions)}</strong>
        {m.priority === 'high' && <span className="chip chip-high">high priority</span>}
        <span className="muted msg-time" title={m.created_at}>
          sent {time(m.created_at)}
        </span>
        <span className={`msg-state ${m.delivered_at ? 'ok' : 'muted'}`} title={m.delivered_at ?? undefined}>
          {m.delivered_at ? `✓ delivered ${time(m.delivered_at)}` : '… waiting'}
        </span>
      </div>
      <div className="msg-body markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </li>
  );
}

/** The read-only history of a session's mailbox, oldest first, kept scrolled to the newest. */
export function Timeline({ messages, sessions }: { messages: SessionMessageDto[]; sessions: SessionDto[] }) {
  const end = useRef<HTMLDivElement>(null);
  // Effects return nothing or a cleanup: scrollIntoView() returns a Promise in current Chromium,
  // and React calling that as a cleanup threw `destroy_ is not a function` and blanked the app.
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length]);
  if (messages.length === 0) return <p className="muted timeline-empty">No messages yet. Write the first one below — the session reads it at its next tool call.</p>;
  return (
    <div className="timeline" data-testid="timeline">
      <ol className="list">
        {messages.map((m) => (
          <Message key={m.id} m={m} sessions={sessions} />
        ))}
      </ol>
      <div ref={end} />
    </div>
  );
}
