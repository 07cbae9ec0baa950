import { useMemo, useState } from 'react';
import { call, routes } from '../../api';
import type { Adapter, KeyValue } from '../../../../shared/contract/router';
import { errorText } from './format';
import { decodeParamName, detectSecretArgs, looksSecret, splitUrl } from '../../../../shared/secrets';
import { FormFooter } from '../../components/FormFooter';

interface ArgRow {
  value: string;
  secret: boolean;
}

/** A lock button: pressed = the value is secret (stored encrypted, shown masked, kept out of logs). */
function LockToggle({ locked, label, onChange }: { locked: boolean; label: string; onChange(locked: boolean): void }) {
  return (
    <button
      type="button"
      className={`btn btn-small lock-toggle ${locked ? 'locked' : ''}`}
      aria-pressed={locked}
      aria-label={label}
      title={locked ? 'Secret: stored encrypted, shown masked. Click to make it plain.' : 'Plain value. Click to make it secret.'}
      onClick={() => onChange(!locked)}
    >
      <span aria-hidden="true">{locked ? '🔒' : '🔓'}</span>
    </button>
  );
}

interface Props {
  adapter: Adapter | null;
  onSaved(a: Adapter): void;
  onCancel(): void;
}

/** Add / edit an adapter: command + args (one per row, no shell), env or headers; any value can be locked as secret. */
export function AdapterEditor({ adapter, onSaved, onCancel }: Props) {
  const [name, setName] = useState(adapter?.name ?? '');
  const [transport, setTransport] = useState<'stdio' | 'http'>(adapter?.transport ?? 'stdio');
  const [command, setCommand] = useState(adapter?.command ?? '');
  const [args, setArgs] = useState<ArgRow[]>(() => (adapter?.args ?? []).map((value, i) => ({ value, secret: !!adapter?.arg_secrets?.[i] })));
  const [url, setUrl] = useState(adapter?.url ?? '');
  // Query parameters the user locked or unlocked; the rest follow the name rule (token, api_key, sig …).
  const [paramChoice, setParamChoice] = useState<Record<string, boolean>>(() => Object.fromEntries((adapter?.url_secrets ?? []).map((n) => [n, true])));
  const [kvs, setKvs] = useState<KeyValue[]>(adapter ? (adapter.transport === 'http' ? adapter.headers : adapter.env) : []);
  const [idle, setIdle] = useState(adapter?.idle_timeout_s ?? 300);
  const [retries, setRetries] = useState(adapter?.max_retries ?? 3);
  const [timeout, setTimeoutS] = useState(adapter?.call_timeout_s ?? 60);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const setKv = (i: number, patch: Partial<KeyValue>) => setKvs((list) => list.map((kv, j) => (j === i ? { ...kv, ...patch } : kv)));
  const setArg = (i: number, patch: Partial<ArgRow>) => setArgs((list) => list.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  /** Typing a value after a secret-looking flag (--token) locks it; a later click can unlock it. */
  const typeArg = (i: number, value: string) =>
    setArgs((list) => {
      const before = detectSecretArgs(list.map((a) => a.value));
      const next = list.map((a, j) => (j === i ? { ...a, value } : a));
      const detected = detectSecretArgs(next.map((a) => a.value));
      return next.map((a, j) => (j === i && detected[j] === true && before[j] !== true ? { ...a, secret: true } : a));
    });
  /** Pasting several lines into an argument adds one row per line. */
  const pasteArgs = (i: number, text: string): boolean => {
    const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
    if (lines.length < 2) return false;
    setArgs((list) => {
      const rows = [...list.slice(0, i), ...lines.map((value) => ({ value, secret: false })), ...list.slice(i + 1)];
      const detected = detectSecretArgs(rows.map((r) => r.value));
      return rows.map((r, j) => ({ ...r, secret: r.secret || detected[j] === true }));
    });
    return true;
  };

  const params = useMemo(() => {
    try {
      return splitUrl(url)
        .params.filter((p) => p.value !== '')
        .map((p) => decodeParamName(p.name));
    } catch {
      return [];
    }
  }, [url]);
  const paramSecret = (name: string) => paramChoice[name] ?? looksSecret(name);

  const save = async () => {
    setBusy(true);
    setError(null);
    const body = {
      name,
      transport,
      ...(transport === 'stdio'
        ? { command, args: args.map((a) => a.value), arg_secrets: args.map((a) => a.secret), env: kvs.filter((kv) => kv.key) }
        : { url, url_secrets: params.filter(paramSecret), url_public: params.filter((n) => !paramSecret(n)), headers: kvs.filter((kv) => kv.key) }),
      idle_timeout_s: Number(idle),
      max_retries: Number(retries),
      call_timeout_s: Number(timeout),
    };
    try {
      onSaved(adapter ? await call(routes.router.updateAdapter, { params: { id: adapter.id }, body }) : await call(routes.router.createAdapter, { body }));
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
          </>
        ) : (
          <label className="span-2">
            URL
            <input className="input mono" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3000/mcp" required />
          </label>
        )}
      </div>

      {transport === 'stdio' ? (
        <fieldset className="kv" aria-label="Arguments">
          <legend>
            Arguments <span className="muted">(one per row, passed as-is, no shell; lock the ones that are secret)</span>
          </legend>
          {args.map((a, i) => (
            <div className="kv-row arg-row" key={i}>
              <input
                className="input mono"
                aria-label={`Argument ${i + 1}`}
                type={a.secret ? 'password' : 'text'}
                value={a.value}
                placeholder={i === 0 ? '-y' : '@modelcontextprotocol/server-memory'}
                onChange={(e) => typeArg(i, e.target.value)}
                onPaste={(e) => {
                  if (pasteArgs(i, e.clipboardData.getData('text'))) e.preventDefault();
                }}
              />
              <LockToggle locked={a.secret} label={`Secret: argument ${i + 1}`} onChange={(secret) => setArg(i, { secret })} />
              <button type="button" className="btn btn-small" aria-label={`Remove argument ${i + 1}`} onClick={() => setArgs((l) => l.filter((_, j) => j !== i))}>
                ×
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-small" onClick={() => setArgs((l) => [...l, { value: '', secret: false }])}>
            + Add argument
          </button>
        </fieldset>
      ) : (
        params.length > 0 && (
          <fieldset className="kv" aria-label="URL parameters">
            <legend>URL query parameters <span className="muted">(lock the ones that are secret)</span></legend>
            {params.map((name) => (
              <div className="kv-row param-row" key={name}>
                <code>{name}</code>
                <LockToggle locked={paramSecret(name)} label={`Secret: URL parameter ${name}`} onChange={(locked) => setParamChoice((c) => ({ ...c, [name]: locked }))} />
              </div>
            ))}
          </fieldset>
        )
      )}

      <fieldset className="kv">
        <legend>{transport === 'stdio' ? 'Environment' : 'Headers'}</legend>
        {kvs.map((kv, i) => (
          <div className="kv-row" key={i}>
            <input className="input mono" aria-label="Key" value={kv.key} placeholder="API_TOKEN" onChange={(e) => setKv(i, { key: e.target.value, secret: kv.secret || looksSecret(e.target.value) })} />
            <input
              className="input mono"
              aria-label={`Value of ${kv.key || 'new entry'}`}
              type={kv.secret ? 'password' : 'text'}
              value={kv.value}
              placeholder={kv.secret ? 'secret (stored encrypted)' : 'value'}
              onChange={(e) => setKv(i, { value: e.target.value })}
            />
            <LockToggle locked={kv.secret} label={`Secret: ${kv.key || 'new entry'}`} onChange={(secret) => setKv(i, { secret })} />
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
      <FormFooter error={error} busy={busy} submit={adapter ? 'Save' : 'Add adapter'} onCancel={onCancel} />
    </form>
  );
}
