import { useState } from 'react';
import { api } from '../../api';
import type { Adapter, KeyValue } from './types';
import { errorText } from './types';

const SECRET_KEY = /(token|secret|password|passwd|authorization|auth|api[_-]?key|key|cookie|credential|private)/i;

interface Props {
  adapter: Adapter | null;
  onSaved(a: Adapter): void;
  onCancel(): void;
}

/** Add / edit an adapter: command + args (one per line, no shell), env or headers with masked secrets. */
export function AdapterEditor({ adapter, onSaved, onCancel }: Props) {
  const [name, setName] = useState(adapter?.name ?? '');
  const [transport, setTransport] = useState<'stdio' | 'http'>(adapter?.transport ?? 'stdio');
  const [command, setCommand] = useState(adapter?.command ?? '');
  const [args, setArgs] = useState((adapter?.args ?? []).join('\n'));
  const [url, setUrl] = useState(adapter?.url ?? '');
  const [kvs, setKvs] = useState<KeyValue[]>(adapter ? (adapter.transport === 'http' ? adapter.headers : adapter.env) : []);
  const [idle, setIdle] = useState(adapter?.idle_timeout_s ?? 300);
  const [retries, setRetries] = useState(adapter?.max_retries ?? 3);
  const [timeout, setTimeoutS] = useState(adapter?.call_timeout_s ?? 60);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const setKv = (i: number, patch: Partial<KeyValue>) => setKvs((list) => list.map((kv, j) => (j === i ? { ...kv, ...patch } : kv)));

  const save = async () => {
    setBusy(true);
    setError(null);
    const body = {
      name,
      transport,
      ...(transport === 'stdio'
        ? { command, args: args.split('\n').filter((l) => l.length > 0), env: kvs.filter((kv) => kv.key) }
        : { url, headers: kvs.filter((kv) => kv.key) }),
      idle_timeout_s: Number(idle),
      max_retries: Number(retries),
      call_timeout_s: Number(timeout),
    };
    try {
      onSaved(adapter ? await api.put<Adapter>(`/api/mcp-adapters/${adapter.id}`, body) : await api.post<Adapter>('/api/mcp-adapters', body));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card router-form"
      aria-label={adapter ? `Edit ${adapter.name}` : 'New adapter'}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>{adapter ? `Edit ${adapter.name}` : 'New MCP adapter'}</h2>
      <div className="form-grid">
        <label>
          Name
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="My tasks server" required />
        </label>
        <label>
          Transport
          <select className="input" value={transport} onChange={(e) => setTransport(e.target.value as 'stdio' | 'http')}>
            <option value="stdio">stdio (start a local program)</option>
            <option value="http">Streamable HTTP (a running server)</option>
          </select>
        </label>
        {transport === 'stdio' ? (
          <>
            <label>
              Command
              <input className="input mono" aria-label="Command" value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" required />
              <small className="muted">One program, started without a shell. Arguments go below.</small>
            </label>
            <label>
              Arguments <span className="muted">(one per line)</span>
              <textarea className="input mono" rows={3} aria-label="Arguments (one per line)" value={args} onChange={(e) => setArgs(e.target.value)} placeholder={'-y\n@modelcontextprotocol/server-memory'} />
            </label>
          </>
        ) : (
          <label className="span-2">
            URL
            <input className="input mono" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3000/mcp" required />
          </label>
        )}
      </div>

      <fieldset className="kv">
        <legend>{transport === 'stdio' ? 'Environment' : 'Headers'}</legend>
        {kvs.map((kv, i) => (
          <div className="kv-row" key={i}>
            <input className="input mono" aria-label="Key" value={kv.key} placeholder="API_TOKEN" onChange={(e) => setKv(i, { key: e.target.value, secret: kv.secret || SECRET_KEY.test(e.target.value) })} />
            <input
              className="input mono"
              aria-label={`Value of ${kv.key || 'new entry'}`}
              type={kv.secret ? 'password' : 'text'}
              value={kv.value}
              placeholder={kv.secret ? 'secret (stored encrypted)' : 'value'}
              onChange={(e) => setKv(i, { value: e.target.value })}
            />
            <label className="inline">
              <input type="checkbox" checked={kv.secret} onChange={(e) => setKv(i, { secret: e.target.checked })} /> secret
            </label>
            <button type="button" className="btn btn-small" aria-label={`Remove ${kv.key}`} onClick={() => setKvs((l) => l.filter((_, j) => j !== i))}>
              ×
            </button>
          </div>
        ))}
        <button type="button" className="btn btn-small" onClick={() => setKvs((l) => [...l, { key: '', value: '', secret: false }])}>
          + Add {transport === 'stdio' ? 'variable' : 'header'}
        </button>
      </fieldset>

      <div className="form-grid three">
        <label>
          Idle timeout (s)
          <input className="input" type="number" min={1} value={idle} onChange={(e) => setIdle(Number(e.target.value))} />
        </label>
        <label>
          Max retries
          <input className="input" type="number" min={0} max={10} value={retries} onChange={(e) => setRetries(Number(e.target.value))} />
        </label>
        <label>
          Call timeout (s)
          <input className="input" type="number" min={1} value={timeout} onChange={(e) => setTimeoutS(Number(e.target.value))} />
        </label>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="toolbar">
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {adapter ? 'Save' : 'Add adapter'}
        </button>
        <button className="btn" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
