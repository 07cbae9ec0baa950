import { useState } from 'react';
import type { Condition, Field, Leaf, Op } from '../../../../shared/contract/router';

const FIELDS: Array<[Field, string]> = [
  ['folder', 'suggested folder'],
  ['intent', 'intent'],
  ['entities', 'entities'],
  ['tags', 'tags'],
  ['source', 'source'],
  ['title', 'title'],
  ['content', 'content'],
  ['path', 'path'],
];
const OPS: Array<[Op, string]> = [
  ['equals', 'is'],
  ['not_equals', 'is not'],
  ['in', 'is one of'],
  ['contains', 'contains'],
  ['starts_with', 'starts with'],
  ['matches', 'matches regex'],
  ['exists', 'is set'],
];

type Mode = 'all' | 'any';

/** Flat all/any lists of field tests are edited as rows; anything nested as JSON. */
function flatten(c: Condition): { mode: Mode; rows: Leaf[] } | null {
  if ('always' in c) return { mode: 'all', rows: [] };
  if ('field' in c) return { mode: 'all', rows: [c] };
  if ('all' in c && c.all.every((x) => 'field' in x)) return { mode: 'all', rows: c.all as Leaf[] };
  if ('any' in c && c.any.every((x) => 'field' in x)) return { mode: 'any', rows: c.any as Leaf[] };
  return null;
}

function build(mode: Mode, rows: Leaf[]): Condition {
  if (rows.length === 0) return { always: true };
  return mode === 'all' ? { all: rows } : { any: rows };
}

/** The route trigger: a row per test, joined by all/any, with the JSON form one click away. */
export function ConditionBuilder({ value, onChange }: { value: Condition; onChange(c: Condition): void }) {
  const flat = flatten(value);
  const [json, setJson] = useState<string | null>(flat ? null : JSON.stringify(value, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);

  if (json !== null || !flat) {
    const text = json ?? JSON.stringify(value, null, 2);
    return (
      <div className="condition-json">
        <textarea
          className="input mono"
          rows={6}
          aria-label="Condition JSON"
          value={text}
          onChange={(e) => {
            setJson(e.target.value);
            try {
              onChange(JSON.parse(e.target.value) as Condition);
              setJsonError(null);
            } catch (err) {
              setJsonError((err as Error).message);
            }
          }}
        />
        {jsonError && <p className="error">{jsonError}</p>}
        {flatten(value) && (
          <button type="button" className="btn btn-small" onClick={() => setJson(null)}>
            Back to the builder
          </button>
        )}
      </div>
    );
  }

  const { mode, rows } = flat;
  const set = (i: number, patch: Partial<Leaf>) => onChange(build(mode, rows.map((r, j) => (j === i ? { ...r, ...patch } : r))));
  return (
    <div className="condition-builder" data-testid="condition-builder">
      {rows.length === 0 ? (
        <p className="muted">Every item matches. Add a test to narrow it.</p>
      ) : (
        <p className="cond-mode">
          Match
          <select className="input inline-select" aria-label="Match mode" value={mode} onChange={(e) => onChange(build(e.target.value as Mode, rows))}>
            <option value="all">all</option>
            <option value="any">any</option>
          </select>
          of these:
        </p>
      )}
      {rows.map((r, i) => (
        <div className="cond-row" key={i}>
          <select className="input" aria-label="Field" value={r.field} onChange={(e) => set(i, { field: e.target.value as Field })}>
            {FIELDS.map(([f, label]) => (
              <option key={f} value={f}>
                {label}
              </option>
            ))}
          </select>
          <select
            className="input"
            aria-label="Operator"
            value={r.op}
            onChange={(e) => {
              const op = e.target.value as Op;
              const v = Array.isArray(r.value) ? r.value.join(', ') : (r.value ?? '');
              set(i, { op, value: op === 'exists' ? undefined : op === 'in' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v });
            }}
          >
            {OPS.map(([o, label]) => (
              <option key={o} value={o}>
                {label}
              </option>
            ))}
          </select>
          {r.op !== 'exists' && (
            <input
              className={`input ${r.op === 'matches' ? 'mono' : ''}`}
              aria-label="Value"
              value={Array.isArray(r.value) ? r.value.join(', ') : (r.value ?? '')}
              placeholder={r.op === 'in' ? 'a, b, c' : r.op === 'matches' ? '^TODO\\b' : 'value'}
              onChange={(e) => set(i, { value: r.op === 'in' ? e.target.value.split(',').map((s) => s.trim()) : e.target.value })}
            />
          )}
          <button type="button" className="btn btn-small" aria-label="Remove test" onClick={() => onChange(build(mode, rows.filter((_, j) => j !== i)))}>
            ×
          </button>
        </div>
      ))}
      <div className="toolbar">
        <button type="button" className="btn btn-small" onClick={() => onChange(build(mode, [...rows, { field: 'tags', op: 'equals', value: '' }]))}>
          + Add test
        </button>
        <button type="button" className="btn btn-small" onClick={() => setJson(JSON.stringify(value, null, 2))}>
          Edit as JSON
        </button>
      </div>
    </div>
  );
}
