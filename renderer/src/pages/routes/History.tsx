import { Fragment, useCallback, useEffect, useState } from 'react';
import { call, routes as R } from '../../api';
import { HubEvent } from '../../../../shared/contract';
import { useHubEvent } from '../../hub';
import type { Distribution, Route } from '../../../../shared/contract/router';
import { errorText } from './format';

/** Every distribution attempt, newest first, filterable by route, status and item. */
export function History({ routes }: { routes: Route[] }) {
  const [rows, setRows] = useState<Distribution[]>([]);
  const [route, setRoute] = useState('');
  const [status, setStatus] = useState('');
  const [item, setItem] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    call(R.router.distributions, { query: { limit: 200, route_id: route || undefined, status: status || undefined, item: item || undefined } })
      .then((r) => {
        setRows(r);
        setError(null);
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, [route, status, item]);

  useEffect(load, [load]);
  useHubEvent(HubEvent.routerDistribution, load);

  return (
    <section className="card history" aria-label="Distribution history">
      <h2>History</h2>
      <div className="toolbar">
        <select className="input inline-select" aria-label="Filter by route" value={route} onChange={(e) => setRoute(e.target.value)}>
          <option value="">All routes</option>
          {routes.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
        <select className="input inline-select" aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Any status</option>
          <option value="ok">ok</option>
          <option value="error">error</option>
          <option value="skipped">skipped</option>
        </select>
        <input className="input inline-input" aria-label="Filter by item" placeholder="Item title or path" value={item} onChange={(e) => setItem(e.target.value)} />
      </div>
      {error && <p className="error">{error}</p>}
      {rows.length === 0 ? (
        <p className="muted">Nothing sent yet.</p>
      ) : (
        <table className="history-table" data-testid="history">
          <thead>
            <tr>
              <th>When</th>
              <th>Item</th>
              <th>Route → tool</th>
              <th>Try</th>
              <th>Status</th>
              <th>Time</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <Fragment key={d.id}>
                <tr className={`history-row status-${d.status}`} onClick={() => setOpen(open === d.id ? null : d.id)} data-testid="history-row">
                  <td className="muted">{new Date(d.created_at).toLocaleString()}</td>
                  <td title={d.item_key}>{d.item_title}</td>
                  <td>
                    {d.route_name ?? '(deleted route)'} → <code>{d.tool}</code>
                  </td>
                  <td>{d.attempt || '–'}</td>
                  <td>
                    <span className={`chip status-chip status-${d.status}`}>{d.status}</span>
                    {d.error && <div className="error small">{d.error}</div>}
                  </td>
                  <td className="muted">{d.duration_ms} ms</td>
                </tr>
                {open === d.id && (
                  <tr className="history-detail">
                    <td colSpan={6}>
                      <div className="two-col">
                        <div>
                          <h3>Arguments sent</h3>
                          <pre className="snippet">{JSON.stringify(d.args, null, 2)}</pre>
                        </div>
                        <div>
                          <h3>Result</h3>
                          <pre className="snippet">{JSON.stringify(d.result, null, 2)}</pre>
                        </div>
                      </div>
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
