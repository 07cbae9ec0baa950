import { useCallback, useEffect, useState } from 'react';
import type { ConnectSnippetDto, InfoDto } from '../../../shared/contract';
import type { SettingsDto } from '../../../shared/contract/settings';
import { call, errorText, routes } from '../api';
import { useOnReconnect } from '../hub';
import { useRoute } from '../router';
import { CopyButton } from '../components/CopyButton';
import { ModelsPanel } from './settings/ModelsPanel';
import { MailAccounts } from './settings/MailAccounts';
import { AddressSetting, GitSetting, LlmSetting, VaultSetting } from './settings/General';
import './settings/settings.css';

const SECTIONS: Array<[string, string]> = [
  ['mail', 'Mail accounts'],
  ['vault', 'Vault'],
  ['address', 'Address'],
  ['git', 'Git remote'],
  ['llm', 'Language model'],
  ['models', 'Models'],
  ['claude', 'Connect Claude'],
  ['about', 'This Mailroom'],
];
const anchor = (id: string) => (id === 'mail' ? 'mail-accounts' : id === 'models' ? 'models-panel' : id);

export function SettingsPage() {
  const [route] = useRoute();
  const [info, setInfo] = useState<InfoDto | null>(null);
  const [settings, setSettings] = useState<SettingsDto | null>(null);
  const [snippet, setSnippet] = useState<ConnectSnippetDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ file: string; backup: string | null; changed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    call(routes.core.info).then(setInfo, (e: Error) => setError(e.message));
    call(routes.settings.get).then(setSettings, (e: Error) => setError(e.message));
    call(routes.core.connect).then(setSnippet, (e: Error) => setError(e.message));
  }, []);
  useEffect(load, [load]);
  useOnReconnect(load);

  // #/settings/mail → scrolls to that section.
  const section = route.split('/')[1];
  useEffect(() => {
    if (!section) return;
    document.getElementById(anchor(section))?.scrollIntoView({ block: 'start' });
  }, [section, settings]);

  const connect = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await call(routes.core.connectClaudeDesktop));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page settings">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <nav className="settings-nav" aria-label="Settings sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#/settings/${id}`} className={section === id ? 'active' : ''}>
            {label}
          </a>
        ))}
      </nav>

      <MailAccounts />

      {settings && (
        <>
          <VaultSetting s={settings} />
          <AddressSetting s={settings} />
          <GitSetting key={`git-${settings.git_remote ?? ''}`} s={settings} reload={load} />
          <LlmSetting key={`llm-${settings.llm?.base_url ?? ''}-${settings.llm?.model ?? ''}`} s={settings} reload={load} />
        </>
      )}

      <ModelsPanel paths={settings?.models ?? {}} configFile={settings?.config_file} />

      <div className="card" id="claude">
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

      <div className="card" id="about">
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
            {settings && (
              <>
                <dt>Settings file</dt>
                <dd>
                  <code>{settings.config_file}</code>
                </dd>
              </>
            )}
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
