import { useEffect, useState } from 'react';
import type { ConnectSnippetDto, InfoDto } from '../../../shared/contract';
import { ApiError, call, routes } from '../api';
import { CopyButton } from '../components/CopyButton';
import { ModelsPanel } from './settings/ModelsPanel';

export function SettingsPage() {
  const [info, setInfo] = useState<InfoDto | null>(null);
  const [snippet, setSnippet] = useState<ConnectSnippetDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ file: string; backup: string | null; changed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    call(routes.core.info).then(setInfo, (e: Error) => setError(e.message));
    call(routes.core.connect).then(setSnippet, (e: Error) => setError(e.message));
  }, []);

  const connect = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await call(routes.core.connectClaudeDesktop));
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message} (${e.code})` : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page settings">
      <header className="page-header">
        <h1>Settings</h1>
      </header>

      <div className="card">
        <h2>Connect Claude Desktop</h2>
        <p className="muted">
          Adds a <code>mailroom</code> entry to <code>{snippet?.claude_desktop_config_path ?? 'claude_desktop_config.json'}</code>,
          keeping every other server and writing a backup first. Restart Claude Desktop afterwards.
        </p>
        <div className="toolbar">
          <button className="btn btn-primary" onClick={() => void connect()} disabled={busy || !snippet}>
            {busy ? 'Adding…' : 'Add to Claude Desktop'}
          </button>
          {snippet && <CopyButton text={snippet.snippet} label="Copy snippet" />}
        </div>
        {result && (
          <p className="ok" role="status">
            {result.changed ? `Added to ${result.file}.` : `${result.file} already had this entry.`}
            {result.backup && <> Backup: <code>{result.backup}</code></>}
          </p>
        )}
        {snippet && (
          <pre className="snippet" data-testid="claude-desktop-snippet">
            {snippet.snippet}
          </pre>
        )}
      </div>

      <div className="card">
        <h2>Connect Claude Code</h2>
        <p className="muted">
          Put this in a project’s <code>.mcp.json</code>, or run <code>mailroom connect claude-code --write .</code> in the project.
        </p>
        {snippet && (
          <>
            <div className="toolbar">
              <CopyButton text={snippet.claude_code_snippet} label="Copy .mcp.json" />
            </div>
            <pre className="snippet" data-testid="claude-code-snippet">
              {snippet.claude_code_snippet}
            </pre>
          </>
        )}
      </div>

      <ModelsPanel />

      <div className="card">
        <h2>This Mailroom</h2>
        {info ? (
          <dl className="facts">
            <dt>Version</dt>
            <dd>{info.version}</dd>
            <dt>Vault</dt>
            <dd>
              <code>{info.vault}</code>
            </dd>
            <dt>Data dir</dt>
            <dd>
              <code>{info.data_dir}</code>
            </dd>
            <dt>Owner</dt>
            <dd>
              pid {info.owner_pid}, 127.0.0.1:{info.port}
            </dd>
            {Object.entries(info.counts).map(([k, v]) => (
              <div key={k} className="fact-row">
                <dt>{k.replace(/_/g, ' ')}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        ) : (
          !error && <p className="muted">Loading…</p>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
