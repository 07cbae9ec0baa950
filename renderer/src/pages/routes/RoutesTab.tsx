import { useState } from 'react';
import { call, routes as R } from '../../api';
import { EmptyState } from '../../components/EmptyState';
import { History } from './History';
import { RouteEditor } from './RouteEditor';
import type { Adapter, Route } from '../../../../shared/contract/router';
import { errorText } from './format';

/** The Routes tab: routes in the order they are tried (drag to reorder), the editor, and the history. */
export function RoutesTab({ routes, adapters, reload }: { routes: Route[]; adapters: Adapter[]; reload(): void }) {
  const [editing, setEditing] = useState<Route | 'new' | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [order, setOrder] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const shown = order ? order.map((id) => routes.find((r) => r.id === id)).filter((r): r is Route => !!r) : routes;

  const commit = async (ids: string[]) => {
    try {
      await call(R.router.reorderRoutes, { body: { ids } });
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
    setOrder(null);
    reload();
  };

  const move = (id: string, to: number) => {
    const ids = shown.map((r) => r.id).filter((x) => x !== id);
    ids.splice(to, 0, id);
    return ids;
  };

  const toggle = async (r: Route) => {
    try {
      await call(R.router.updateRoute, { params: { id: r.id }, body: { name: r.name, enabled: !r.enabled, priority: r.priority, condition: r.condition, adapter_id: r.adapter_id, tool: r.tool, mapper: r.mapper, mapping: r.mapping, instructions: r.instructions, allow_fallback: r.allow_fallback } });
      reload();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const remove = async (r: Route) => {
    if (!window.confirm(`Delete the route "${r.name}"? Its history stays.`)) return;
    await call(R.router.deleteRoute, { params: { id: r.id } }).catch((e: unknown) => setError(errorText(e)));
    reload();
  };

  return (
    <div className="routes-tab">
      <div className="toolbar">
        <button className="btn btn-primary" onClick={() => setEditing('new')} disabled={editing !== null || adapters.length === 0}>
          New route
        </button>
        <span className="muted">{adapters.length === 0 ? 'Add an adapter first.' : 'Tried top to bottom; the first route that sends wins. Drag to reorder.'}</span>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {editing && (
        <RouteEditor
          key={editing === 'new' ? 'new' : editing.id}
          route={editing === 'new' ? null : editing}
          adapters={adapters}
          onCancel={() => {
            setEditing(null);
            reload();
          }}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {shown.length === 0 && !editing && adapters.length > 0 && <EmptyState title="No routes yet" body="A route sends matching inbox items to one tool of an adapter." />}
      <ol className="list route-list" aria-label="Routes by priority">
        {shown.map((r, i) => (
          <li
            key={r.id}
            className={`card route-card ${dragging === r.id ? 'dragging' : ''} ${r.enabled ? '' : 'disabled'}`}
            data-testid="route-card"
            draggable
            onDragStart={(e) => {
              setDragging(r.id);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(e) => {
              e.preventDefault();
              if (dragging && dragging !== r.id) setOrder(move(dragging, i));
            }}
            onDragEnd={() => {
              setDragging(null);
              if (order) void commit(order);
            }}
          >
            <span className="drag-handle" aria-hidden="true" title="Drag to reorder">
              ⋮⋮
            </span>
            <div className="route-main">
              <div className="route-head">
                <strong>{r.name}</strong>
                {!r.enabled && <span className="chip">disabled</span>}
                {r.schema_drift && (
                  <span className="chip drift-chip" title="The tool's input schema changed since the route was saved">
                    schema changed
                  </span>
                )}
              </div>
              <div className="muted route-desc">
                When {r.condition_text} → <strong>{r.adapter_name ?? '(missing adapter)'}</strong> / <code>{r.tool}</code> · {r.mapper === 'llm' ? `LLM${r.allow_fallback ? ' + fallback' : ''}` : r.mapping ? 'template' : 'schema defaults'}
              </div>
            </div>
            <div className="route-actions">
              <button className="btn btn-small" aria-label={`Move ${r.name} up`} disabled={i === 0} onClick={() => void commit(move(r.id, i - 1))}>
                ↑
              </button>
              <button className="btn btn-small" aria-label={`Move ${r.name} down`} disabled={i === shown.length - 1} onClick={() => void commit(move(r.id, i + 1))}>
                ↓
              </button>
              <button className="btn btn-small" onClick={() => void toggle(r)}>
                {r.enabled ? 'Disable' : 'Enable'}
              </button>
              <button className="btn btn-small" onClick={() => setEditing(r)}>
                Edit
              </button>
              <button className="btn btn-small btn-danger" onClick={() => void remove(r)}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ol>
      <History routes={routes} />
    </div>
  );
}
