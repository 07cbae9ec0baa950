import { useState, type FormEvent } from 'react';
import { call, errorText, routes } from '../../api';
import type { SessionDto } from '../../../../shared/contract/sessions';
import { FormFooter } from '../../components/FormFooter';

export function NewSessionForm({ sessions, onCreated, onCancel }: { sessions: SessionDto[]; onCreated: (t: SessionDto) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [dir, setDir] = useState('');
  const [peer, setPeer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const t = await call(routes.sessions.create, { body: { name: name.trim(), working_dir: dir.trim(), ...(peer ? { peer } : {}) } });
      onCreated(t);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card new-session" onSubmit={(e) => void submit(e)} aria-label="New session">
      <h2>New session</h2>
      <p className="muted">
        Mailroom merges a mailbox into the folder: a note in <code>CLAUDE.md</code>, a hook in <code>.claude/settings.json</code> and
        a <code>mailroom</code> entry in <code>.mcp.json</code>. Removing the session puts the files back as they were.
      </p>
      <div className="new-session-grid">
        <label>
          <span>Name</span>
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="backend" required autoFocus />
        </label>
        <label>
          <span>Working folder</span>
          <input className="input mono" value={dir} onChange={(e) => setDir(e.target.value)} placeholder="/home/me/code/project" required />
        </label>
        <label>
          <span>Peer (optional)</span>
          <select className="input" value={peer} onChange={(e) => setPeer(e.target.value)}>
            <option value="">No peer</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.id})
              </option>
            ))}
          </select>
        </label>
      </div>
      <FormFooter error={error} busy={busy} blocked={!name.trim() || !dir.trim()} submit={busy ? 'Creating…' : 'Create session'} onCancel={onCancel} />
    </form>
  );
}
