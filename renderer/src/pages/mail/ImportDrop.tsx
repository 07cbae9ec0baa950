import { useEffect, useRef, useState, type DragEvent } from 'react';
import { bridge, routes } from '../../api';
import { urlOf } from '../../../../shared/contract';
import { HubEvent } from '../../../../shared/contract';
import { useHubEvent } from '../../hub';

interface Progress {
  phase: 'upload' | 'parse' | 'store' | 'done';
  done: number;
  total: number;
}

/**
 * Drop an mbox or .eml here. The upload's own progress comes from XHR; parsing and storing
 * report over the hub (MailImportProgress) so a 10,000-message mbox shows a moving bar.
 *
 * The bar ends when the upload's HTTP reply arrives (the authority: it carries the report or the
 * error) or when the hub says the import is done, whichever comes first. The hub and the reply
 * travel on different connections, so progress events can arrive after the reply: they are
 * ignored once the import has finished, so a late one can never bring the bar back (it used to,
 * and then hid the file picker until a reload).
 */
export function ImportDrop({ inboxId, onImported }: { inboxId: string; onImported(msg: string): void }) {
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The import in flight, if any; finished imports are forgotten, so their late events do nothing. */
  const active = useRef<{ id: string; xhr: XMLHttpRequest } | null>(null);

  // Leaving the page mid-upload: stop listening and drop the request.
  useEffect(
    () => () => {
      const a = active.current;
      active.current = null;
      a?.xhr.abort();
    },
    [],
  );

  const finish = (id: string) => {
    if (active.current?.id !== id) return false;
    active.current = null;
    setProgress(null);
    return true;
  };

  useHubEvent(HubEvent.mailImportProgress, (p) => {
    if (!p?.import_id || active.current?.id !== p.import_id) return;
    if (p.phase === 'done') {
      // The server is finished; the HTTP reply brings the report (or already did).
      setProgress(null);
      return;
    }
    setProgress({ phase: p.phase, done: p.done, total: p.total });
  });

  const upload = (file: File) => {
    active.current?.xhr.abort();
    const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
    const xhr = new XMLHttpRequest();
    active.current = { id, xhr };
    setError(null);
    setProgress({ phase: 'upload', done: 0, total: file.size });
    // Not `call`: the file is the body and the upload reports progress; the path is still the table's.
    const R = routes.mail.importUpload;
    xhr.open(R.method, bridge.baseUrl + urlOf(R, { query: { inbox: inboxId, filename: file.name, import_id: id } }));
    xhr.setRequestHeader('authorization', `Bearer ${bridge.token}`);
    xhr.upload.onprogress = (e) => {
      if (active.current?.id === id) setProgress((p) => (p && p.phase !== 'upload' ? p : { phase: 'upload', done: e.loaded, total: e.total || file.size }));
    };
    xhr.onload = () => {
      if (!finish(id)) return;
      try {
        const body = JSON.parse(xhr.responseText) as { imported?: number; duplicates?: number; total?: number; failed?: unknown[]; message?: string };
        if (xhr.status >= 400) setError(body.message ?? `Import failed (HTTP ${xhr.status}).`);
        else onImported(`Imported ${body.imported} of ${body.total} messages (${body.duplicates} already there${body.failed?.length ? `, ${body.failed.length} failed` : ''}).`);
      } catch {
        setError(`Import failed (HTTP ${xhr.status}).`);
      }
    };
    xhr.onerror = () => {
      if (finish(id)) setError('Upload failed: the connection to Mailroom dropped.');
    };
    xhr.onabort = () => void finish(id);
    xhr.send(file);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) upload(f);
  };

  const pct = progress && progress.total ? Math.round((100 * progress.done) / progress.total) : 0;
  return (
    <div
      className={`mail-drop ${over ? 'over' : ''}`}
      data-testid="mail-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      {progress ? (
        <div className="mail-progress" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label={`Import ${progress.phase}`}>
          <div className="mail-progress-bar" style={{ width: `${pct}%` }} />
          <span className="muted">
            {progress.phase === 'upload' ? 'Uploading' : progress.phase === 'parse' ? 'Reading messages' : 'Threading and indexing'} {progress.phase === 'upload' ? `${pct}%` : `${progress.done} / ${progress.total}`}
          </span>
        </div>
      ) : (
        <label className="muted">
          Drop an <b>mbox</b> or <b>.eml</b> file here, or{' '}
          <input
            type="file"
            accept=".mbox,.mbx,.eml,message/rfc822,application/mbox"
            data-testid="mail-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) upload(f);
              e.target.value = '';
            }}
          />
        </label>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
