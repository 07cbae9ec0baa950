import { useCallback, useEffect, useState } from 'react';
import { call, routes as R } from '../../api';
import type { Route, RouteResult } from '../../../../shared/contract/router';
import { errorText } from './format';
import './routes.css';

/**
 * Per inbox item: which route would take it (a dry run, with the arguments it would send) and
 * "Route to…" any route, sent after confirmation. Needs only the note's vault path.
 */
export function RouteTo({ path }: { path: string }) {
  const [preview, setPreview] = useState<RouteResult | null>(null);
  const [routes, setRoutes] = useState<Route[]>([]);
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState('');
  const [showArgs, setShowArgs] = useState(false);
  const [sent, setSent] = useState<RouteResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    call(R.router.routeItem, { body: { path, dry_run: true } })
      .then((r) => {
        setPreview(r);
        setError(null);
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, [path]);
  useEffect(load, [load]);

  const openMenu = async () => {
    setOpen(true);
    try {
      const list = (await call(R.router.listRoutes)).filter((r) => r.enabled);
      setRoutes(list);
      setChoice(preview?.matched?.id ?? list[0]?.id ?? '');
    } catch (e) {
      setError(errorText(e));
    }
  };

  const send = async () => {
    const r = routes.find((x) => x.id === choice);
    if (!r || !window.confirm(`Send "${path}" through "${r.name}" to ${r.adapter_name ?? 'its server'} / ${r.tool}?`)) return;
    setBusy(true);
    try {
      setSent(await call(R.router.routeItem, { body: { path, route_id: r.id } }));
      setOpen(false);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="route-to" data-testid="route-to">
      <span className="muted">
        {preview?.matched ? (
          <>
            Route: <strong>{preview.matched.name}</strong> → <code>{preview.matched.tool}</code>
            {preview.error ? <span className="error"> ({preview.error.message})</span> : null}{' '}
            <button type="button" className="btn btn-small" onClick={() => setShowArgs((v) => !v)}>
              {showArgs ? 'Hide' : 'Preview'}
            </button>
          </>
        ) : preview ? (
          'No route matches.'
        ) : null}
      </span>{' '}
      {!open ? (
        <button type="button" className="btn btn-small" onClick={() => void openMenu()}>
          Route to…
        </button>
      ) : (
        <span className="route-to-menu">
          <select className="input inline-select" aria-label="Route" value={choice} onChange={(e) => setChoice(e.target.value)}>
            {routes.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} → {r.tool}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-small btn-primary" disabled={!choice || busy} onClick={() => void send()}>
            Send
          </button>
          <button type="button" className="btn btn-small" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </span>
      )}
      {showArgs && preview?.args && <pre className="snippet">{JSON.stringify(preview.args, null, 2)}</pre>}
      {sent && <p className={sent.status === 'ok' ? 'ok' : 'error'}>{sent.status === 'ok' ? `Sent via ${sent.matched?.name}.` : `Not sent: ${sent.error?.message}`}</p>}
      {error && <p className="error">{error}</p>}
    </div>
  );
}
