import { useState } from 'react';
import { call, routes } from '../../api';
import { EmptyState } from '../../components/EmptyState';
import { AdapterEditor } from './AdapterEditor';
import { StatusBadge } from './StatusBadge';
import type { Adapter, AdapterTest } from '../../../../shared/contract/router';
import { errorText } from './format';

/** The Adapters tab: every MCP server Mailroom can reach, with its live process status. */
export function AdaptersTab({ adapters, reload }: { adapters: Adapter[]; reload(): void }) {
  const [editing, setEditing] = useState<Adapter | 'new' | null>(null);
  const [tests, setTests] = useState<Record<string, AdapterTest | 'testing'>>({});
  const [error, setError] = useState<string | null>(null);

  const test = async (a: Adapter) => {
    setTests((t) => ({ ...t, [a.id]: 'testing' }));
    try {
      const r = await call(routes.router.testAdapter, { params: { id: a.id } });
      setTests((t) => ({ ...t, [a.id]: r }));
    } catch (e) {
      setTests((t) => ({ ...t, [a.id]: { ok: false, tools: [], status: a.status, error: { code: 'error', message: errorText(e) }, duration_ms: 0 } }));
    }
    reload();
  };

  const remove = async (a: Adapter) => {
    if (!window.confirm(`Delete the adapter "${a.name}"? Its server is stopped.`)) return;
    try {
      await call(routes.router.deleteAdapter, { params: { id: a.id } });
      setError(null);
      reload();
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <div className="adapters-tab">
      <div className="toolbar">
        <button className="btn btn-primary" onClick={() => setEditing('new')} disabled={editing !== null}>
          Add adapter
        </button>
        <span className="muted">An adapter says how to reach an MCP server; routes decide what goes there.</span>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {editing && (
        <AdapterEditor
          adapter={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {adapters.length === 0 && !editing && <EmptyState title="No adapters yet" body="Add the MCP servers you want to send inbox items to: a task manager, a memory server, a notes app." />}
      <ul className="list adapter-list">
        {adapters.map((a) => {
          const t = tests[a.id];
          return (
            <li key={a.id} className="card adapter-card" data-testid="adapter-card" aria-label={a.name}>
              <div className="adapter-head">
                <strong className="adapter-name">{a.name}</strong>
                <StatusBadge status={a.status} />
                <span className="spacer" />
                <button className="btn btn-small" onClick={() => void test(a)} disabled={t === 'testing'}>
                  {t === 'testing' ? 'Testing…' : 'Test connection'}
                </button>
                <button className="btn btn-small" onClick={() => setEditing(a)}>
                  Edit
                </button>
                <button className="btn btn-small btn-danger" onClick={() => void remove(a)}>
                  Delete
                </button>
              </div>
              <code className="adapter-cmd">{a.transport === 'stdio' ? [a.command, ...a.args.map((x) => (/\s/.test(x) ? JSON.stringify(x) : x))].join(' ') : a.url}</code>
              <div className="adapter-meta muted">
                {a.env.length + a.headers.length > 0 && (
                  <span>
                    {[...a.env, ...a.headers].map((kv) => (
                      <span className="chip kv-chip" key={kv.key}>
                        {kv.key}={kv.value}
                      </span>
                    ))}
                  </span>
                )}
                <span>idle {a.idle_timeout_s}s · {a.max_retries} retries · used by {a.routes} route{a.routes === 1 ? '' : 's'}</span>
              </div>
              {a.command_problem && <p className="error">{a.command_problem}</p>}
              {a.status.state === 'failed' && a.status.reason && (
                <p className="error" data-testid="adapter-failure">
                  Failed: {a.status.reason}
                </p>
              )}
              {t && t !== 'testing' && (
                <div className={`test-result ${t.ok ? 'ok' : 'error'}`} data-testid="test-result">
                  {t.ok ? (
                    <>
                      <p>
                        Connected in {t.duration_ms} ms · {t.tools.length} tool{t.tools.length === 1 ? '' : 's'}:
                      </p>
                      <ul className="tool-list">
                        {t.tools.map((tool) => (
                          <li key={tool.name}>
                            <code>{tool.name}</code> <span className="muted">{tool.description}</span>
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : (
                    <p role="alert">Could not connect: {t.error?.message}</p>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
