import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { CheckResult, SettingsDto, VaultSwitchDto } from '../../../../shared/contract/settings';
import { SECRET_MASK } from '../../../../shared/secrets';
import { call, routes } from '../../api';
import { useHub, useHubEvent } from '../../hub';
import { useAction } from '../../components/useAction';
import { HubEvent, type IndexProgressDto } from '../../../../shared/contract';


function Result({ r, testId }: { r: CheckResult | string | null; testId?: string }) {
  if (!r) return null;
  if (typeof r === 'string')
    return (
      <p className="error" role="alert" data-testid={testId}>
        {r}
      </p>
    );
  return (
    <p className={r.ok ? 'ok' : 'error'} role={r.ok ? 'status' : 'alert'} data-testid={testId}>
      {r.ok ? '✓ ' : ''}
      {r.message}
    </p>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <div className="card" id={id} data-testid={`settings-${id}`}>
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** The vault: choose a folder by path, validated by the owner, which then restarts on it and re-indexes. */
export function VaultSetting({ s }: { s: SettingsDto }) {
  const [path, setPath] = useState('');
  const { busy, run } = useAction();
  const [msg, setMsg] = useState<CheckResult | string | null>(null);
  const { status } = useHub();
  const [switching, setSwitching] = useState<VaultSwitchDto | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(
      'save',
      async (): Promise<CheckResult | null> => {
        const r = await call(routes.settings.vault, { body: { path: path.trim() } });
        setPath('');
        if (!r.restarting) return { ok: true, message: `Saved: ${r.path} (${r.notes} notes).` };
        setSwitching(r);
        return null;
      },
      setMsg,
    );
  };

  const [progress, setProgress] = useState<IndexProgressDto | null>(null);
  useHubEvent(HubEvent.indexProgress, (x) => switching && setProgress(x as IndexProgressDto));
  // The owner restarts on the new vault; once the hub is back on it, follow the index until ready.
  const onNewVault = !!switching && status === 'connected' && s.vault.path === switching.path;
  useEffect(() => {
    if (!onNewVault) return;
    call(routes.core.status).then((st) => setProgress(st.index), () => undefined);
  }, [onNewVault]);
  useEffect(() => {
    if (onNewVault && switching && progress?.state === 'ready') {
      setMsg({ ok: true, message: `Now using ${switching.path}: ${progress.total || switching.notes} notes indexed.` });
      setSwitching(null);
      setProgress(null);
    } else if (onNewVault && progress?.state === 'failed') {
      setMsg(`Now using ${switching!.path}, but indexing failed (see the log).`);
      setSwitching(null);
      setProgress(null);
    }
  }, [onNewVault, switching, progress]);

  return (
    <Card id="vault" title="Vault">
      <p className="muted">
        The folder of markdown notes Mailroom reads and files into.
        {s.vault.demo && ' You are using the demo vault: choose your own folder to start for real.'}
      </p>
      <dl className="facts">
        <dt>Now</dt>
        <dd>
          <code data-testid="vault-path">{s.vault.path}</code>
        </dd>
      </dl>
      <form className="toolbar" onSubmit={submit}>
        <input className="input grow" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/you/notes" aria-label="Vault folder" />
        <button className="btn btn-primary" disabled={!!busy || !path.trim() || !!switching}>
          {busy ? 'Checking…' : 'Use this folder'}
        </button>
      </form>
      {switching && (
        <div className="progress" role="status" data-testid="vault-switching">
          {onNewVault && progress?.total ? (
            <>
              <progress max={progress.total} value={progress.done} aria-label="Indexing" />
              Indexing {progress.done.toLocaleString('en')} / {progress.total.toLocaleString('en')} notes of <code>{switching.path}</code>…
            </>
          ) : (
            <>
              <div className="progress-bar indeterminate" />
              Switching to <code>{switching.path}</code> ({switching.notes} notes)…
            </>
          )}
        </div>
      )}
      <Result r={msg} testId="vault-result" />
    </Card>
  );
}

/** Where Mailroom answers, and why it may not be the usual port. */
export function AddressSetting({ s }: { s: SettingsDto }) {
  return (
    <Card id="address" title="Address">
      <dl className="facts">
        <dt>This run</dt>
        <dd>
          <code data-testid="address-url">{s.address.url}</code>
        </dd>
        <dt>Usual port</dt>
        <dd>{s.address.preferred === 0 ? 'any free port' : s.address.preferred}</dd>
      </dl>
      {s.address.note && (
        <p className="warn-note" role="alert" data-testid="address-note">
          {s.address.note}
        </p>
      )}
      <p className="muted">
        Mailroom keeps the same address between starts, so bookmarks and open tabs keep working. Open it any time with <code>mailroom open</code>. Change the port with{' '}
        <code>npm start -- --port 7720</code> for one run, or <code>&quot;port&quot;</code> in <code>{s.config_file}</code> for good.
      </p>
    </Card>
  );
}

export function GitSetting({ s, reload }: { s: SettingsDto; reload: () => void }) {
  const [url, setUrl] = useState(s.git_remote ?? '');
  const { busy, run } = useAction();
  const [msg, setMsg] = useState<CheckResult | string | null>(null);
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(
      'save',
      async (): Promise<CheckResult> => {
        await call(routes.settings.gitRemote, { body: { url: url.trim() } });
        reload();
        return { ok: true, message: url.trim() ? 'Saved. Every change Mailroom commits is pushed there.' : 'Removed: changes stay in the local git history only.' };
      },
      setMsg,
    );
  };
  const test = () => void run('test', () => call(routes.settings.testGitRemote, { body: { url: url.trim() } }), setMsg);
  return (
    <Card id="git" title="Git remote">
      <p className="muted">Mailroom commits every change it makes in the vault. With a remote, it pushes each commit there too (an https URL; put a token in it as the password if the server needs one).</p>
      <form className="toolbar" onSubmit={save}>
        <input className="input grow" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://git.example.com/you/notes.git" aria-label="Git remote URL" />
        <button className="btn btn-primary" disabled={!!busy}>
          {busy === 'save' ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn" onClick={test} disabled={!!busy || !url.trim()}>
          {busy === 'test' ? 'Pushing…' : 'Test push'}
        </button>
      </form>
      <Result r={msg} testId="git-result" />
    </Card>
  );
}

export function LlmSetting({ s, reload }: { s: SettingsDto; reload: () => void }) {
  const [baseUrl, setBaseUrl] = useState(s.llm?.base_url ?? '');
  const [model, setModel] = useState(s.llm?.model ?? '');
  const [key, setKey] = useState('');
  const { busy, run } = useAction();
  const [msg, setMsg] = useState<CheckResult | string | null>(null);
  const body = () => ({ base_url: baseUrl.trim(), model: model.trim(), ...(key ? { api_key: key } : {}) });
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(
      'save',
      async (): Promise<CheckResult> => {
        await call(routes.settings.llm, { body: body() });
        setKey('');
        reload();
        return { ok: true, message: baseUrl.trim() ? 'Saved. Drafting and mapping use this model when the client offers none.' : 'Removed: Mailroom uses its templates and on-device models only.' };
      },
      setMsg,
    );
  };
  const test = () => void run('test', () => call(routes.settings.testLlm, { body: body() }), setMsg);
  return (
    <Card id="llm" title="Language model">
      <p className="muted">Optional. An OpenAI-compatible endpoint — a local Ollama or LM Studio, or a hosted one — for drafting replies and mapping routes. Without it Mailroom uses templates and its small on-device models.</p>
      <form onSubmit={save}>
        <div className="form-grid">
          <label>
            Base URL
            <input className="input" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="http://127.0.0.1:11434/v1" />
          </label>
          <label>
            Model
            <input className="input" value={model} onChange={(e) => setModel(e.target.value)} placeholder="llama3.2" />
          </label>
          <label>
            <span>
              API key <span className="muted">(if the endpoint needs one)</span>
            </span>
            <input
              className="input"
              type="password"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              placeholder={s.llm?.has_api_key ? `${SECRET_MASK} stored — leave empty to keep it` : ''}
              autoComplete="new-password"
              aria-label="API key"
            />
          </label>
        </div>
        <div className="toolbar">
          <button className="btn btn-primary" disabled={!!busy}>
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="btn" onClick={test} disabled={!!busy || !baseUrl.trim() || !model.trim()}>
            {busy === 'test' ? 'Asking the model…' : 'Test'}
          </button>
        </div>
      </form>
      <Result r={msg} testId="llm-result" />
    </Card>
  );
}
