import { useEffect, useState, type ReactNode } from 'react';
import { call, errorText, routes } from '../../api';
import type { AnalysisDto, EntityDto, ModelCard, ModelsInfo } from '../../../../shared/contract/nlp';

/** How the Settings page reads a card's free-form metrics (their shape differs per model task). */
interface Prf {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}
interface Metrics {
  examples?: number;
  sentences?: number;
  intent?: { accuracy: number; macro_f1: number };
  intent_baseline?: { accuracy: number };
  explicit_save?: Prf & { hard_negative_fp_rate: number };
  overall?: Prf;
  per_type?: Record<string, Prf>;
  baseline?: { overall?: Prf };
}
type Card = ModelCard;
type Entity = EntityDto;
type Analysis = AnalysisDto;

const pct = (x: number | undefined) => (x === undefined ? '–' : `${Math.round(x * 100)}%`);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

const INTENT: Record<string, string> = {
  SAVE_PREFERENCE: 'a preference to remember',
  SAVE_DECISION: 'a decision to remember',
  SAVE_FACT: 'a fact to remember',
  RECALL_INFO: 'asks to recall something',
  UPDATE_INFO: 'updates something known',
  QUESTION: 'a question',
  GREETING: 'a greeting',
};
const ENTITY: Record<string, string> = { PERSON: 'person', ORG: 'organisation', PRODUCT: 'product', GPE: 'place', DATE: 'date', TIME: 'time' };
const ACTION: Record<Analysis['action_recommendation'], string> = {
  MUST_SAVE: 'Save it — the message asks to be remembered.',
  SHOULD_SAVE: 'Worth saving.',
  SHOULD_SEARCH: 'Look it up in your notes.',
  NONE: 'Nothing to do.',
};

/** What each shipped model is for, in a sentence. */
const PURPOSE: Record<string, { title: string; does: string }> = {
  intent: {
    title: 'Message kind',
    does: 'Reads a message and tells what it is — something to remember (a preference, a decision, a fact), a request to recall or update, a question or a greeting — and how urgent it is.',
  },
  ner: {
    title: 'Names and dates',
    does: 'Finds the people, organisations, products, places, dates and times a message mentions, so notes get the right links and tags.',
  },
};

function Quality({ card }: { card: Card }) {
  const m = card.metrics as Metrics;
  if (m.intent) {
    return (
      <p>
        On {m.examples ?? 'a set of'} test messages written alongside it, it names the right kind <strong>{pct(m.intent.accuracy)}</strong> of the time
        {m.intent_baseline && <> (simple keyword rules: {pct(m.intent_baseline.accuracy)})</>}.
        {m.explicit_save && (
          <>
            {' '}
            It recognises {pct(m.explicit_save.recall)} of explicit “remember this” requests and mistakes {pct(m.explicit_save.hard_negative_fp_rate)} of look-alike sentences for one.
          </>
        )}{' '}
        <span className="muted">Figures on test text written alongside a model are optimistic: on text written by people who never saw it, expect a few points less.</span>
      </p>
    );
  }
  if (m.overall) {
    return (
      <p>
        On {m.sentences ?? 'a set of'} test sentences written alongside it, it finds <strong>{pct(m.overall.recall)}</strong> of the names and dates, and{' '}
        <strong>{pct(m.overall.precision)}</strong> of what it marks is right{m.baseline?.overall && <> (a general-purpose library finds {pct(m.baseline.overall.recall)})</>}.
      </p>
    );
  }
  return null;
}

function CardView({ card, path, override }: { card: Card; path: string; override?: string }) {
  const p = PURPOSE[card.name] ?? { title: card.name, does: card.task };
  return (
    <div className="model-card" data-testid={`model-card-${card.name}`}>
      <h3>{p.title}</h3>
      <p>{p.does}</p>
      <Quality card={card} />
      <p className="muted small">
        {mb(card.bytes)}, runs on this computer — nothing you write leaves it. {override ? 'A larger model from your settings' : 'The model shipped with Mailroom'}: <code>{path}</code>
      </p>
    </div>
  );
}

function highlight(text: string, entities: Entity[]): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const e of [...entities].sort((a, b) => a.start - b.start)) {
    if (e.start < at) continue;
    out.push(text.slice(at, e.start));
    const kind = ENTITY[e.type] ?? e.type.toLowerCase();
    out.push(
      <mark key={`${e.start}-${e.end}`} className={`entity entity-${e.type.toLowerCase()}`} title={`${kind}, ${pct(e.score)} sure`}>
        {text.slice(e.start, e.end)}
        <sup>{kind}</sup>
      </mark>,
    );
    at = e.end;
  }
  out.push(text.slice(at));
  return out;
}

/** Settings → Models: what each on-device model does, how good it is, and a box to try it. */
export function ModelsPanel({ paths = {}, configFile }: { paths?: Record<string, string>; configFile?: string }) {
  const [info, setInfo] = useState<ModelsInfo | null>(null);
  const [message, setMessage] = useState('Remember that Dr. Amara Singh from Acme Corp prefers postgres, call her next Tuesday at 3pm');
  const [analyzed, setAnalyzed] = useState<{ text: string; result: Analysis } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    call(routes.nlp.models).then(setInfo, (e: Error) => setError(e.message));
  }, []);

  const tryIt = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await call(routes.nlp.analyze, { body: { message } });
      setAnalyzed({ text: message, result });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const top = analyzed ? Object.entries(analyzed.result.intent_probs).sort((a, b) => b[1] - a[1]).slice(0, 3) : [];

  return (
    <div className="card" id="models-panel" data-testid="models-panel">
      <h2>Models</h2>
      <p className="muted">
        Two small models read your messages on this computer to sort and tag them.
        {info && info.backend !== 'onnx' && <> They could not be loaded here, so Mailroom uses simpler built-in rules{info.error ? ` (${info.error})` : ''}.</>}
      </p>
      {info?.models.map((m) => <CardView key={m.card.name} card={m.card} path={m.path} override={paths[m.card.name]} />)}
      <p className="muted small">
        To use a larger model with the same inputs and outputs, set its path under <code>&quot;models&quot;</code> (<code>&quot;intent&quot;</code> or <code>&quot;ner&quot;</code>) in{' '}
        <code>{configFile ?? 'config.json'}</code> and restart.
      </p>

      <h3>Try it</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void tryIt();
        }}
      >
        <textarea
          className="input"
          aria-label="Message to try"
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void tryIt();
            }
          }}
        />
        <div className="toolbar">
          <button className="btn btn-primary" disabled={busy || !message.trim()} title="Ctrl+Enter">
            {busy ? 'Reading…' : 'Read this message'}
          </button>
        </div>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {analyzed && (
        <div data-testid="models-try-result">
          <p className="analysed-text">{highlight(analyzed.text, analyzed.result.entities)}</p>
          <dl className="facts">
            <dt>It is</dt>
            <dd>
              {INTENT[analyzed.result.intent] ?? analyzed.result.intent} ({pct(analyzed.result.confidence)} sure)
            </dd>
            <dt>Suggestion</dt>
            <dd>{ACTION[analyzed.result.action_recommendation] ?? analyzed.result.action_recommendation}</dd>
            <dt>Urgency</dt>
            <dd>{analyzed.result.urgency}</dd>
            {analyzed.result.suggested_tags.length > 0 && (
              <>
                <dt>Tags</dt>
                <dd>{analyzed.result.suggested_tags.join(', ')}</dd>
              </>
            )}
            <dt>Other readings</dt>
            <dd>
              {top
                .slice(1)
                .map(([label, p]) => `${INTENT[label] ?? label} ${pct(p)}`)
                .join(' · ') || '—'}
            </dd>
          </dl>
        </div>
      )}
    </div>
  );
}
