import { useState, type DragEvent } from 'react';
import { call, errorText, routes } from '../api';

/**
 * The tray's small capture box: text or dropped files go to the inbox through the same path as
 * `brain_inbox_save` (POST /api/inbox/capture).
 */
export function CapturePage() {
  const [text, setText] = useState('');
  const [title, setTitle] = useState('');
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [over, setOver] = useState(false);

  const save = async (content: string, t?: string) => {
    if (!content.trim()) return;
    try {
      const r = await call(routes.inbox.capture, { body: { content, ...(t ? { title: t } : {}), source: 'capture' } });
      setStatus({ kind: 'ok', text: `Saved to ${r.path}` });
      setText('');
      setTitle('');
    } catch (e) {
      setStatus({ kind: 'error', text: errorText(e) });
    }
  };

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const files = [...e.dataTransfer.files];
    if (files.length === 0) {
      const dropped = e.dataTransfer.getData('text/plain');
      if (dropped) await save(dropped);
      return;
    }
    for (const f of files) await save(await f.text(), f.name.replace(/\.(md|txt)$/i, ''));
  };

  return (
    <div
      className={`capture ${over ? 'drop-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => void onDrop(e)}
    >
      <h1>Capture to inbox</h1>
      <input className="input" placeholder="Title (optional)" value={title} onChange={(e) => setTitle(e.target.value)} />
      <textarea
        className="input"
        autoFocus
        rows={6}
        placeholder="Type a note, or drop files here. Ctrl+Enter saves."
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save(text, title);
        }}
      />
      <div className="toolbar">
        <button className="btn btn-primary" onClick={() => void save(text, title)} disabled={!text.trim()}>
          Save to inbox
        </button>
        {status && <span className={status.kind === 'ok' ? 'ok' : 'error'} role="status">{status.text}</span>}
      </div>
    </div>
  );
}
