import { useEffect, useState } from 'react';
import { call, routes } from '../../api';
import { ConditionBuilder } from './ConditionBuilder';
import type { Adapter, Condition, Preview, Route, RouteResult, ToolInfo } from '../../../../shared/contract/router';
import { errorText } from './format';
import { FormFooter } from '../../components/FormFooter';

const SAMPLE = { title: 'Call Dana about the swim meet', content: 'Owen has a meet on Friday. Bring towels.', tags: ['todo', 'family'], entities: ['Dana', 'Owen'], intent: 'task', folder: 'family/swim', source: 'note', date: '2026-01-22' };

const DEFAULT_MAPPING = { title: '{{ title }}', content: '{{ content }}' };

interface Props {
  route: Route | null;
  adapters: Adapter[];
  onSaved(r: Route): void;
  onCancel(): void;
}

/** Route editor: trigger, target tool (from the server's registry), mapping beside the tool's schema, preview and test. */
export function RouteEditor({ route, adapters, onSaved, onCancel }: Props) {
  const [name, setName] = useState(route?.name ?? '');
  const [enabled, setEnabled] = useState(route?.enabled ?? true);
  const [adapterId, setAdapterId] = useState(route?.adapter_id ?? adapters[0]?.id ?? '');
  const [tool, setTool] = useState(route?.tool ?? '');
  const [condition, setCondition] = useState<Condition>(route?.condition ?? { always: true });
  const [mapper, setMapper] = useState<'template' | 'llm'>(route?.mapper ?? 'template');
  const [mapping, setMapping] = useState(JSON.stringify(route?.mapping ?? DEFAULT_MAPPING, null, 2));
  const [instructions, setInstructions] = useState(route?.instructions ?? '');
  const [allowFallback, setAllowFallback] = useState(route?.allow_fallback ?? false);
  const [tools, setTools] = useState<ToolInfo[] | null>(null);
  const [toolsError, setToolsError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Route | null>(route);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sampleKind, setSampleKind] = useState<'sample' | 'path'>('sample');
  const [sample, setSample] = useState(JSON.stringify(SAMPLE, null, 2));
  const [samplePath, setSamplePath] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [testResult, setTestResult] = useState<RouteResult | null>(null);

  useEffect(() => {
    if (!adapterId) return;
    let cancelled = false;
    setTools(null);
    setToolsError(null);
    call(routes.router.adapterTools, { params: { id: adapterId } })
      .then((t) => {
        if (cancelled) return;
        setTools(t);
        setTool((cur) => (cur && t.some((x) => x.name === cur) ? cur : (t[0]?.name ?? cur)));
      })
      .catch((e: unknown) => !cancelled && setToolsError(errorText(e)));
    return () => {
      cancelled = true;
    };
  }, [adapterId]);

  const schema = tools?.find((t) => t.name === tool)?.inputSchema ?? saved?.tool_schema ?? null;

  const body = () => {
    let parsed: Record<string, unknown> | null = null;
    if (mapper === 'template' && mapping.trim()) {
      try {
        parsed = JSON.parse(mapping) as Record<string, unknown>;
      } catch (e) {
        throw new Error(`The mapping is not valid JSON: ${(e as Error).message}`);
      }
    }
    return { name, enabled, adapter_id: adapterId, tool, condition, mapper, mapping: parsed, instructions, allow_fallback: allowFallback, ...(saved ? { priority: saved.priority } : {}) };
  };

  const save = async (): Promise<Route | null> => {
    setBusy(true);
    setError(null);
    try {
      const b = body();
      const r = saved ? await call(routes.router.updateRoute, { params: { id: saved.id }, body: b }) : await call(routes.router.createRoute, { body: b });
      setSaved(r);
      return r;
    } catch (e) {
      setError(errorText(e));
      return null;
    } finally {
      setBusy(false);
    }
  };

  const itemBody = () => (sampleKind === 'path' ? { path: samplePath } : { item: JSON.parse(sample) as Record<string, unknown> });

  const runPreview = async () => {
    const r = await save();
    if (!r) return;
    try {
      setPreview(await call(routes.router.previewRoute, { params: { id: r.id }, body: itemBody() }));
      setTestResult(null);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const runTest = async () => {
    if (!window.confirm(`Send this item to ${adapters.find((a) => a.id === adapterId)?.name ?? 'the server'} → ${tool} for real?`)) return;
    const r = await save();
    if (!r) return;
    try {
      setTestResult(await call(routes.router.testRoute, { params: { id: r.id }, body: { ...itemBody(), confirm: true } }));
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <form
      className="card router-form route-editor"
      aria-label={route ? `Edit ${route.name}` : 'New route'}
      onSubmit={(e) => {
        e.preventDefault();
        void save().then((r) => r && onSaved(r));
      }}
    >
      <h2>{route ? `Edit ${route.name}` : 'New route'}</h2>
      <div className="form-grid">
        <label>
          Name
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="Todos → Tasks" required />
        </label>
        <label className="inline enabled-toggle">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
        </label>
      </div>

      <h3>When</h3>
      <ConditionBuilder value={condition} onChange={setCondition} />

      <h3>Send to</h3>
      <div className="form-grid">
        <label>
          Adapter
          <select className="input" value={adapterId} onChange={(e) => setAdapterId(e.target.value)}>
            {adapters.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tool
          <select className="input" aria-label="Tool" value={tool} onChange={(e) => setTool(e.target.value)} disabled={!tools}>
            {!tools && <option value={tool}>{toolsError ? tool || '(server unreachable)' : 'Loading tools…'}</option>}
            {tools?.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
          {toolsError && <small className="error">{toolsError}</small>}
        </label>
      </div>
      {saved?.schema_drift && <p className="warn-note">The tool&apos;s schema changed since this route was saved. Check the preview, then save to accept the new schema.</p>}

      <h3>Mapping</h3>
      <div className="mapper-choice">
        <label className="inline">
          <input type="radio" name="mapper" checked={mapper === 'template'} onChange={() => setMapper('template')} /> Template (offline, exact)
        </label>
        <label className="inline">
          <input type="radio" name="mapper" checked={mapper === 'llm'} onChange={() => setMapper('llm')} /> LLM instructions
        </label>
      </div>
      <div className="mapping-split">
        <div>
          {mapper === 'template' ? (
            <>
              <textarea className="input mono" rows={12} aria-label="Mapping template" value={mapping} onChange={(e) => setMapping(e.target.value)} />
              <small className="muted">
                <code>{'{{ title }}'}</code>, <code>{'{{ content }}'}</code>, <code>{'{{ tags }}'}</code>, <code>{'{{ date | date }}'}</code>, <code>{'{ "$each": "tags", "$as": { "name": "{{ item }}" } }'}</code>. Empty = guess from the tool schema.
              </small>
            </>
          ) : (
            <>
              <textarea className="input" rows={8} aria-label="Processing instructions" value={instructions} onChange={(e) => setInstructions(e.target.value)} placeholder="Title: use the item title. Date: use the due date (YYYY-MM-DD). Tags: convert to multi-select." />
              <label className="inline">
                <input type="checkbox" checked={allowFallback} onChange={(e) => setAllowFallback(e.target.checked)} /> Allow the template mapping as a fallback when the LLM fails
              </label>
              <textarea className="input mono" rows={4} aria-label="Fallback template" value={mapping} onChange={(e) => setMapping(e.target.value)} />
            </>
          )}
        </div>
        <div className="schema-pane">
          <div className="schema-title">
            Input schema of <code>{tool || '…'}</code>
          </div>
          <pre className="snippet" data-testid="tool-schema">
            {schema ? JSON.stringify(schema, null, 2) : 'Pick a tool to see its schema.'}
          </pre>
        </div>
      </div>

      <h3>Try it</h3>
      <div className="mapper-choice">
        <label className="inline">
          <input type="radio" name="sample" checked={sampleKind === 'sample'} onChange={() => setSampleKind('sample')} /> Sample item
        </label>
        <label className="inline">
          <input type="radio" name="sample" checked={sampleKind === 'path'} onChange={() => setSampleKind('path')} /> Inbox note
        </label>
      </div>
      {sampleKind === 'sample' ? (
        <textarea className="input mono" rows={5} aria-label="Sample item" value={sample} onChange={(e) => setSample(e.target.value)} />
      ) : (
        <input className="input mono" aria-label="Note path" value={samplePath} onChange={(e) => setSamplePath(e.target.value)} placeholder="inbox/note.md" />
      )}
      <div className="toolbar">
        <button type="button" className="btn" onClick={() => void runPreview()} disabled={busy || !tool}>
          Preview
        </button>
        <button type="button" className="btn" onClick={() => void runTest()} disabled={busy || !tool}>
          Test (sends for real)
        </button>
      </div>
      {preview && (
        <div className="preview" data-testid="preview">
          <p>
            {preview.condition_met ? <span className="ok">The item meets the condition.</span> : <span className="muted">The item does not meet the condition (previewed anyway).</span>} Mapper: {preview.mapper}
          </p>
          {preview.error && <p className="error">{preview.error.message}</p>}
          {preview.validation.errors.length > 0 && (
            <ul className="error validation-errors" data-testid="validation-errors">
              {preview.validation.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
          {preview.validation.valid && !preview.error && <p className="ok">Valid against the tool&apos;s schema.</p>}
          {preview.validation.warning && <p className="muted">{preview.validation.warning}</p>}
          <pre className="snippet" data-testid="preview-args">
            {JSON.stringify(preview.args, null, 2)}
          </pre>
        </div>
      )}
      {testResult && (
        <div className={`preview test-result ${testResult.status === 'ok' ? 'ok' : 'error'}`} data-testid="route-test-result">
          <p>
            {testResult.status === 'ok' ? 'Sent.' : `Not sent: ${testResult.error?.message ?? testResult.status}`} {testResult.attempts.length} attempt{testResult.attempts.length === 1 ? '' : 's'}.
          </p>
          <pre className="snippet">{JSON.stringify(testResult.result, null, 2)}</pre>
        </div>
      )}
      <FormFooter error={error} busy={busy} submit="Save route" cancel="Close" onCancel={onCancel} />
    </form>
  );
}
