import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { ImapSyncState, InboxView, MailTestBody, MailTestResult } from '../../../../shared/contract/mail';
import { call, errorText, routes } from '../../api';
import { HubEvent } from '../../../../shared/contract';
import { useHubEvent, useOnReconnect } from '../../hub';
import { useAction } from '../../components/useAction';


function ago(iso: string): string {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

function inWords(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** The IMAP sync state of one inbox, in words. */
function SyncStatus({ sync, hasImap }: { sync: ImapSyncState | null; hasImap: boolean }) {
  if (!hasImap) return <span className="muted">Receiving: not set up</span>;
  if (!sync || sync.status === 'stopped') return <span className="chip">Paused</span>;
  if (sync.status === 'error') {
    return (
      <span className="account-error" role="alert" data-testid="account-error">
        <span className="chip chip-danger">Not syncing</span> {sync.error}
        {sync.retry_in_ms !== undefined && <span className="muted"> Next try in {inWords(sync.retry_in_ms)}{sync.failures && sync.failures > 1 ? ` (attempt ${sync.failures + 1})` : ''}.</span>}
      </span>
    );
  }
  if (sync.status === 'connecting') return <span className="chip">Connecting…</span>;
  if (sync.status === 'syncing') return <span className="chip">Syncing…</span>;
  return (
    <span className="chip chip-ok" data-testid="account-synced">
      Synced{sync.synced_at ? ` ${ago(sync.synced_at)}` : ''}
    </span>
  );
}

interface FormState {
  address: string;
  name: string;
  imapOn: boolean;
  imapHost: string;
  imapPort: string;
  imapSecure: boolean;
  imapUser: string;
  imapPassword: string;
  mailbox: string;
  smtpOn: boolean;
  smtpHost: string;
  smtpPort: string;
  smtpSecure: boolean;
  smtpUser: string;
  smtpPassword: string;
}

const blank: FormState = {
  address: '',
  name: '',
  imapOn: true,
  imapHost: '',
  imapPort: '993',
  imapSecure: true,
  imapUser: '',
  imapPassword: '',
  mailbox: 'INBOX',
  smtpOn: true,
  smtpHost: '',
  smtpPort: '465',
  smtpSecure: true,
  smtpUser: '',
  smtpPassword: '',
};

function formOf(ib: InboxView): FormState {
  return {
    address: ib.address,
    name: ib.name ?? '',
    imapOn: !!ib.imap,
    imapHost: ib.imap?.host ?? '',
    imapPort: String(ib.imap?.port ?? 993),
    imapSecure: ib.imap?.secure ?? true,
    imapUser: ib.imap?.user ?? ib.address,
    imapPassword: '',
    mailbox: ib.imap?.mailbox ?? 'INBOX',
    smtpOn: !!ib.smtp,
    smtpHost: ib.smtp?.host ?? '',
    smtpPort: String(ib.smtp?.port ?? 465),
    smtpSecure: ib.smtp?.secure ?? true,
    smtpUser: ib.smtp?.user ?? ib.address,
    smtpPassword: '',
  };
}

const imapOf = (f: FormState) => ({ host: f.imapHost.trim(), port: Number(f.imapPort), secure: f.imapSecure, user: f.imapUser.trim(), mailbox: f.mailbox.trim() || 'INBOX', ...(f.imapPassword ? { password: f.imapPassword } : {}) });
const smtpOf = (f: FormState) => ({ host: f.smtpHost.trim(), port: Number(f.smtpPort), secure: f.smtpSecure, ...(f.smtpUser.trim() ? { user: f.smtpUser.trim() } : {}), ...(f.smtpPassword ? { password: f.smtpPassword } : {}) });

function TestResult({ r, testId }: { r: MailTestResult | string | null; testId: string }) {
  if (!r) return null;
  if (typeof r === 'string') return <p className="error" role="alert" data-testid={testId}>{r}</p>;
  return (
    <p className={r.ok ? 'ok' : 'error'} role={r.ok ? 'status' : 'alert'} data-testid={testId}>
      {r.ok ? '✓ ' : ''}
      {r.message}
    </p>
  );
}

type ServerKind = 'imap' | 'smtp';

/** What differs between the IMAP and the SMTP part of the form; the fields are otherwise the same. */
const SERVER: Record<ServerKind, { legend: string; name: string; loginRequired: boolean; secure: string }> = {
  imap: { legend: 'Receive mail (IMAP)', name: 'IMAP', loginRequired: true, secure: 'TLS, usually port 993' },
  smtp: { legend: 'Send mail (SMTP)', name: 'SMTP', loginRequired: false, secure: 'TLS from the start, usually port 465; off for 587' },
};

/** One server's fieldset: on/off, host, port, login, TLS, any extra fields, and a connection test. */
function ServerFields(props: {
  kind: ServerKind;
  f: FormState;
  set: <K extends keyof FormState>(k: K, v: FormState[K]) => void;
  editing: InboxView | null;
  busy: string | null;
  onTest: () => void;
  result: MailTestResult | string | null;
  children?: ReactNode;
}) {
  const { kind, f, set, editing, busy } = props;
  const { legend, name, loginRequired, secure } = SERVER[kind];
  const [on, host, port, user, password, tls] = [`${kind}On`, `${kind}Host`, `${kind}Port`, `${kind}User`, `${kind}Password`, `${kind}Secure`] as const;
  return (
    <fieldset>
      <legend>
        <label className="check">
          <input type="checkbox" checked={f[on]} onChange={(e) => set(on, e.target.checked)} /> {legend}
        </label>
      </legend>
      {f[on] && (
        <>
          <div className="form-grid">
            <label>
              {name} server
              <input className="input" required value={f[host]} onChange={(e) => set(host, e.target.value)} placeholder={`${kind}.example.com`} />
            </label>
            <label className="narrow">
              Port
              <input className="input" required inputMode="numeric" value={f[port]} onChange={(e) => set(port, e.target.value.replace(/\D/g, ''))} />
            </label>
            <label>
              {loginRequired ? (
                'User name'
              ) : (
                <span>
                  User name <span className="muted">(empty: no login)</span>
                </span>
              )}
              <input className="input" required={loginRequired} value={f[user]} onChange={(e) => set(user, e.target.value)} autoComplete="off" />
            </label>
            <label>
              Password
              <input
                className="input"
                type="password"
                required={loginRequired && !editing?.[kind]}
                value={f[password]}
                onChange={(e) => set(password, e.target.value)}
                placeholder={editing?.[kind]?.has_password ? 'stored — leave empty to keep it' : ''}
                autoComplete="new-password"
                aria-label={`${name} password`}
              />
            </label>
            {props.children}
            <label className="check">
              <input type="checkbox" checked={f[tls]} onChange={(e) => set(tls, e.target.checked)} /> Secure connection ({secure})
            </label>
          </div>
          <div className="toolbar">
            <button type="button" className="btn" onClick={props.onTest} disabled={!!busy || !f[host] || (loginRequired && !f[user])}>
              {busy === `test-${kind}` ? 'Testing…' : 'Test connection'}
            </button>
            <TestResult r={props.result} testId={`${kind}-test-result`} />
          </div>
        </>
      )}
    </fieldset>
  );
}

/** Add or edit the IMAP + SMTP account of one inbox. */
function AccountForm({ editing, onDone }: { editing: InboxView | null; onDone: (saved: boolean) => void }) {
  const [f, setF] = useState<FormState>(editing ? formOf(editing) : blank);
  const { busy, run } = useAction();
  const [error, setError] = useState<string | null>(null);
  const [imapTest, setImapTest] = useState<MailTestResult | string | null>(null);
  const [smtpTest, setSmtpTest] = useState<MailTestResult | string | null>(null);
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setF((x) => ({ ...x, [k]: v }));

  // Typing the address fills the user names and guesses the servers (editable).
  const setAddress = (address: string) =>
    setF((x) => {
      const domain = address.split('@')[1] ?? '';
      const guess = (prefix: string, cur: string, prev: string) => (!cur || cur === `${prefix}.${prev}` ? (domain ? `${prefix}.${domain}` : '') : cur);
      const prevDomain = x.address.split('@')[1] ?? '';
      return {
        ...x,
        address,
        imapUser: !x.imapUser || x.imapUser === x.address ? address : x.imapUser,
        smtpUser: !x.smtpUser || x.smtpUser === x.address ? address : x.smtpUser,
        imapHost: guess('imap', x.imapHost, prevDomain),
        smtpHost: guess('smtp', x.smtpHost, prevDomain),
      };
    });

  const test = (kind: 'imap' | 'smtp') => {
    const body: MailTestBody = kind === 'imap' ? { kind, settings: imapOf(f), inbox_id: editing?.id } : { kind, settings: smtpOf(f), inbox_id: editing?.id };
    void run(`test-${kind}`, () => call(routes.mail.testAccount, { body }), kind === 'imap' ? setImapTest : setSmtpTest);
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(
      'save',
      async () => {
        let id = editing?.id;
        if (!id) id = (await call(routes.mail.createInbox, { body: { address: f.address.trim(), ...(f.name.trim() ? { name: f.name.trim() } : {}) } })).id;
        await call(routes.mail.updateInbox, {
          params: { id },
          body: {
            name: f.name.trim() || null,
            imap: f.imapOn ? imapOf(f) : null,
            smtp: f.smtpOn ? smtpOf(f) : null,
          },
        });
        onDone(true);
        return null;
      },
      setError,
    );
  };

  return (
    <form
      className="account-form"
      onSubmit={save}
      onKeyDown={(e) => e.key === 'Escape' && onDone(false)}
      aria-label={editing ? `Edit ${editing.address}` : 'Add a mail account'}
      data-testid="account-form"
    >
      <h3>{editing ? `Edit ${editing.address}` : 'Add a mail account'}</h3>
      <div className="form-grid">
        <label>
          Email address
          <input className="input" type="email" required autoFocus={!editing} disabled={!!editing} value={f.address} onChange={(e) => setAddress(e.target.value)} placeholder="you@example.com" />
        </label>
        <label>
          <span>
            Name <span className="muted">(optional)</span>
          </span>
          <input className="input" value={f.name} onChange={(e) => set('name', e.target.value)} placeholder="Work" />
        </label>
      </div>

      <ServerFields kind="imap" f={f} set={set} editing={editing} busy={busy} onTest={() => test('imap')} result={imapTest}>
        <label>
          Folder
          <input className="input" value={f.mailbox} onChange={(e) => set('mailbox', e.target.value)} />
        </label>
      </ServerFields>
      <ServerFields kind="smtp" f={f} set={set} editing={editing} busy={busy} onTest={() => test('smtp')} result={smtpTest} />

      <p className="muted small">Passwords are sealed on this machine and never shown again.</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={!!busy}>
          {busy === 'save' ? 'Saving…' : 'Save account'}
        </button>
        <button type="button" className="btn" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Settings → Mail accounts: IMAP and SMTP per inbox, sync state and the last error in words. */
export function MailAccounts() {
  const [inboxes, setInboxes] = useState<InboxView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<InboxView | 'new' | null>(null);

  const load = useCallback(() => {
    call(routes.mail.inboxes).then(
      (l) => {
        setInboxes(l);
        setError(null);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, []);
  useEffect(load, [load]);
  useOnReconnect(load);
  useHubEvent(HubEvent.mailChanged, load);
  useHubEvent(HubEvent.mailSync, (s) => {
    setInboxes((l) => l?.map((ib) => (ib.id === s.inbox_id ? { ...ib, sync: { ...s } } : ib)) ?? l);
  });

  const remove = async (ib: InboxView) => {
    if (!window.confirm(`Remove the IMAP and SMTP account of ${ib.address}? Mail already synced stays.`)) return;
    try {
      await call(routes.mail.updateInbox, { params: { id: ib.id }, body: { imap: null, smtp: null } });
      load();
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <div className="card" id="mail-accounts" data-testid="mail-accounts">
      <div className="card-head">
        <h2>Mail accounts</h2>
        {editing === null && (
          <button className="btn btn-primary" onClick={() => setEditing('new')}>
            Add account
          </button>
        )}
      </div>
      <p className="muted">Mailroom fetches mail over IMAP and sends replies over SMTP. Each address is one inbox on the Mail page.</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {inboxes && inboxes.length === 0 && editing === null && <p className="muted" data-testid="accounts-empty">No mail accounts yet. Add one to read and answer your mail here.</p>}
      {inboxes && inboxes.length > 0 && (
        <ul className="accounts">
          {inboxes.map((ib) => (
            <li key={ib.id} className="account" data-testid={`account-${ib.id}`}>
              <div className="account-main">
                <strong>{ib.address}</strong>
                {ib.name && <span className="muted"> · {ib.name}</span>}
                <div className="account-lines">
                  <div>
                    {ib.imap && (
                      <span className="muted">
                        IMAP {ib.imap.user} @ {ib.imap.host}:{ib.imap.port} ·{' '}
                      </span>
                    )}
                    <SyncStatus sync={ib.sync} hasImap={!!ib.imap} />
                  </div>
                  <div className="muted">{ib.smtp ? `SMTP ${ib.smtp.user ?? '(no login)'} @ ${ib.smtp.host}:${ib.smtp.port}` : 'Sending: not set up — replies need an SMTP server.'}</div>
                </div>
              </div>
              <div className="toolbar">
                <button className="btn btn-small" onClick={() => setEditing(ib)} aria-label={`Edit ${ib.address}`}>
                  Edit
                </button>
                {(ib.imap || ib.smtp) && (
                  <button className="btn btn-small btn-danger" onClick={() => void remove(ib)} aria-label={`Remove the account of ${ib.address}`}>
                    Remove
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing !== null && (
        <AccountForm
          key={editing === 'new' ? 'new' : editing.id}
          editing={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) load();
          }}
        />
      )}
    </div>
  );
}
