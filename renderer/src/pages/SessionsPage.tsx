import { useEffect, useState } from 'react';
import { EmptyState } from '../components/EmptyState';
import { useSessions } from './sessions/useSessions';
import { NewSessionForm } from './sessions/NewSessionForm';
import { SessionDetail } from './sessions/SessionDetail';
import { StatusChip } from './sessions/StatusChip';
import './sessions/sessions.css';

const SELECTED_KEY = 'mailroom.sessions.selected';

/** Sessions: every agent session with its live unread count; pick one to read its timeline and write to it. */
export function SessionsPage() {
  const { sessions, error, reload } = useSessions();
  const [selected, setSelected] = useState<string | null>(() => sessionStorage.getItem(SELECTED_KEY));
  const [creating, setCreating] = useState(false);

  const select = (id: string | null) => {
    setSelected(id);
    if (id) sessionStorage.setItem(SELECTED_KEY, id);
    else sessionStorage.removeItem(SELECTED_KEY);
  };

  // Fall back to the first session when the remembered one is gone.
  useEffect(() => {
    if (!sessions) return;
    if (!selected || !sessions.some((s) => s.id === selected)) select(sessions[0]?.id ?? null);
  }, [sessions, selected]);

  const current = sessions?.find((s) => s.id === selected);

  return (
    <section className="page sessions-page">
      <header className="page-header">
        <h1>Sessions</h1>
        {!creating && (
          <button className="btn btn-primary" onClick={() => setCreating(true)}>
            New session
          </button>
        )}
      </header>
      {error && (
        <p className="error" role="alert">
          Could not load sessions: {error}
        </p>
      )}
      {creating && (
        <NewSessionForm
          sessions={sessions ?? []}
          onCancel={() => setCreating(false)}
          onCreated={(t) => {
            setCreating(false);
            reload();
            select(t.id);
          }}
        />
      )}
      {sessions && sessions.length === 0 && !creating && (
        <EmptyState
          title="No sessions yet"
          body={
            <>
              A session is a Claude Code session in a working folder. Create one here or with{' '}
              <code>mailroom session add --name NAME --dir PATH</code>, then push messages into it while it works.
            </>
          }
          action={
            <button className="btn btn-primary" onClick={() => setCreating(true)}>
              New session
            </button>
          }
        />
      )}
      {sessions && sessions.length > 0 && (
        <div className="sessions-layout">
          <ul className="list session-list" aria-label="Sessions">
            {sessions.map((s) => (
              <li key={s.id}>
                <button
                  className={`session-item ${s.id === selected ? 'active' : ''}`}
                  data-testid={`session-item-${s.id}`}
                  aria-current={s.id === selected ? 'true' : undefined}
                  onClick={() => select(s.id)}
                >
                  <span className="session-item-top">
                    <span className="session-name">{s.name}</span>
                    {s.pending > 0 && (
                      <span className="badge" data-testid={`session-badge-${s.id}`} aria-label={`${s.pending} unread`}>
                        {s.pending}
                      </span>
                    )}
                  </span>
                  <span className="session-item-bottom">
                    <StatusChip status={s.status} />
                    <span className="muted session-dir" title={s.working_dir}>
                      {/* The container is rtl so long paths elide at the start; the marks keep the path itself in order. */}
                      {`\u200E${s.working_dir}\u200E`}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {current ? <SessionDetail key={current.id} task={current} sessions={sessions} onRemoved={reload} /> : <div />}
        </div>
      )}
    </section>
  );
}
