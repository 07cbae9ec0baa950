import { useCallback, useEffect, useState } from 'react';
import { call, errorText, routes } from '../../api';
import { useHubEvent, useOnReconnect } from '../../hub';
import { HubEvent } from '../../../../shared/contract/hub';
import type { SessionDto, SessionMessageDto } from '../../../../shared/contract/sessions';
import { Timeline } from './Timeline';
import { Composer } from './Composer';
import { StatusChip } from './StatusChip';

export function SessionDetail({ task, sessions, onRemoved }: { task: SessionDto; sessions: SessionDto[]; onRemoved: () => void }) {
  const [messages, setMessages] = useState<SessionMessageDto[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [removed, setRemoved] = useState<string | null>(null);

  const load = useCallback(() => {
    call(routes.sessions.messages, { params: { id: task.id } }).then(setMessages, (e: Error) => setError(e.message));
  }, [task.id]);
  useEffect(() => {
    setMessages([]);
    setConfirmRemove(false);
    load();
  }, [load]);
  useOnReconnect(load);
  const onChange = (sessionId: unknown) => {
    if (sessionId === task.id) load();
  };
  useHubEvent(HubEvent.taskMessageQueued, onChange);
  useHubEvent(HubEvent.taskMessageDelivered, onChange);

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const remove = () =>
    act(async () => {
      const r = await call(routes.sessions.remove, { params: { id: task.id } });
      setRemoved(`Removed. Restored: ${[...r.restored, ...r.merged].join(', ') || 'nothing to restore'}.`);
      onRemoved();
    });

  const peers = task.peers.map((p) => sessions.find((s) => s.id === p)?.name ?? p);

  return (
    <div className="card session-detail" aria-label={`Session ${task.name}`}>
      <header className="session-detail-head">
        <div className="session-detail-title">
          <h2>{task.name}</h2>
          <StatusChip status={task.status} />
          {task.pending > 0 && <span className="chip">{task.pending} waiting</span>}
        </div>
        <div className="toolbar">
          {task.status !== 'done' && (
            <button className="btn btn-small" onClick={() => void act(() => call(routes.sessions.done, { params: { id: task.id } }))}>
              Mark done
            </button>
          )}
          {confirmRemove ? (
            <>
              <button className="btn btn-small btn-danger" onClick={() => void remove()}>
                Remove and restore files
              </button>
              <button className="btn btn-small" onClick={() => setConfirmRemove(false)}>
                Keep
              </button>
            </>
          ) : (
            <button className="btn btn-small btn-danger" onClick={() => setConfirmRemove(true)}>
              Remove…
            </button>
          )}
        </div>
      </header>
      <dl className="facts session-facts">
        <div className="fact-row">
          <dt>Id</dt>
          <dd>
            <code>{task.id}</code>
          </dd>
        </div>
        <div className="fact-row">
          <dt>Working folder</dt>
          <dd>
            <code>{task.working_dir}</code>
          </dd>
        </div>
        {peers.length > 0 && (
          <div className="fact-row">
            <dt>Peers</dt>
            <dd>{peers.join(', ')}</dd>
          </div>
        )}
      </dl>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {removed && <p className="ok">{removed}</p>}
      <Timeline messages={messages} sessions={sessions} />
      <Composer sessionId={task.id} />
    </div>
  );
}
