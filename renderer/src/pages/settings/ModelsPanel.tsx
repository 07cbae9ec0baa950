import { useEffect, useState, type ReactNode } from 'react';
import { api, ApiError } from '../../api';

/** Shapes of GET /api/models and POST /api/nlp/analyze (electron/core/domains/nlp). */
interface Prf {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}
interface Card {
  name: string;
  version: string;
  task: string;
  bytes: number;
  labels: string[];
  features: { buckets: number; description: string };
  training: { command: string; seed: number; algorithm: string; examples: Record<string, number>; corpus: string };
  metrics: {
    intent?: { accuracy: number; macro_f1: number };
    intent_baseline?: { accuracy: number };
    explicit_save?: Prf & { hard_negative_fp_rate: number };
    explicit_save_baseline?: Prf & { hard_negative_fp_rate: number };
    overall?: Prf;
    per_type?: Record<string, Prf>;
    baseline?: { overall?: Prf };
  };
}
interface ModelsInfo {
  backend: 'onnx' | 'heuristic';
  load_ms: number;
  error?: string;
  models: Array<{ path: string; card: Card }>;
}
interface Entity {
  text: string;
  type: string;
  start: number;
  end: number;
  score: number;
}
interface Analysis {
  action_recommendation: string;
  intent: string;
  confidence: number;
  intent_probs: Record<string, number>;
  urgency: string;
  entities: Entity[];
  suggested_tags: string[];
  suggested_strength: number;
  reasoning: string;
}

const pct = (x: number | undefined) => (x === undefined ? '–' : `${(x * 100).toFixed(1)}%`);

function CardView({ card }: { card: Card }) {
  const m = card.metrics;
  return (
    <div className="model-card" data-testid={`model-card-${card.name}`}>
      <h3>
        {card.name} <span className="muted">v{card.version} · {(card.bytes / 2 ** 20).toFixed(1)} MB</span>
      </h3>
      <p className="muted">{card.task}</p>
      {m.intent && (
        <ul>
          <li>
            Intent accuracy {pct(m.intent.accuracy)} (keyword baseline {pct(m.intent_baseline?.accuracy)}), macro-F1 {pct(m.intent.macro_f1)}
          </li>
          {m.explicit_save && (
            <li>
              Explicit-save recall {pct(m.explicit_save.recall)}, false positives on hard negatives {pct(m.explicit_save.hard_negative_fp_rate)} (seed regex:{' '}
              {pct(m.explicit_save_baseline?.recall)} / {pct(m.explicit_save_baseline?.hard_negative_fp_rate)})
            </li>
          )}
        </ul>
      )}
      {m.overall && (
        <ul>
          <li>
            Entity F1 {pct(m.overall.f1)} (compromise baseline {pct(m.baseline?.overall?.f1)})
          </li>
          <li>
            {Object.entries(m.per_type ?? {})
              .map(([t, v]) => `${t} ${pct(v.f1)}`)
              .join(' · ')}
          </li>
        </ul>
      )}
      <p className="muted">
        Trained by <code>{card.training.command}</code> (seed {card.training.seed}) — {card.training.algorithm}. Corpus: {card.training.corpus}.
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
    out.push(
      <mark key={`${e.start}-${e.end}`} className={`entity entity-${e.type.toLowerCase()}`} title={`${e.type} (${e.score.toFixed(2)})`}>
        {text.slice(e.start, e.end)}
        <sup>{e.type}</sup>
      </mark>,
    );
    at = e.end;
  }
  out.push(text.slice(at));
  return out;
}

/** Settings → Models: each model's card, and a box to try a message against them. */
export function ModelsPanel() {
  const [info, setInfo] = useState<ModelsInfo | null>(null);
  const [message, setMessage] = useState('Remember that Dr. Amara Singh from Acme Corp prefers postgres, call her next Tuesday at 3pm');
  const [analyzed, setAnalyzed] = useState<{ text: string; result: Analysis } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.get<ModelsInfo>('/api/models').then(setInfo, (e: Error) => setError(e.message));
  }, []);

  const tryIt = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await api.post<Analysis>('/api/nlp/analyze', { message });
      setAnalyzed({ text: message, result });
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message} (${e.code})` : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card" data-testid="models-panel">
      <h2>Models</h2>
      {info && (
        <p className="muted">
          Backend: <strong>{info.backend === 'onnx' ? 'on-device ONNX models' : 'heuristic fallback'}</strong>, loaded in {info.load_ms} ms.
          {info.error && <> Models did not load: {info.error}</>}
        </p>
      )}
      {info?.models.map((m) => <CardView key={m.card.name} card={m.card} />)}

      <h3>Try it</h3>
      <textarea aria-label="Message to analyse" rows={3} value={message} onChange={(e) => setMessage(e.target.value)} style={{ width: '100%' }} />
      <div className="toolbar">
        <button className="btn btn-primary" onClick={() => void tryIt()} disabled={busy || !message.trim()}>
          {busy ? 'Analysing…' : 'Analyse'}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {analyzed && (
        <div data-testid="models-try-result">
          <p className="analysed-text">{highlight(analyzed.text, analyzed.result.entities)}</p>
          <p>
            <strong>{analyzed.result.action_recommendation}</strong> · intent <strong>{analyzed.result.intent}</strong> ({pct(analyzed.result.confidence)}) · urgency{' '}
            {analyzed.result.urgency} · strength {analyzed.result.suggested_strength}
            {analyzed.result.suggested_tags.length > 0 && <> · tags {analyzed.result.suggested_tags.join(', ')}</>}
          </p>
          <table className="probs">
            <tbody>
              {Object.entries(analyzed.result.intent_probs)
                .sort((a, b) => b[1] - a[1])
                .map(([label, p]) => (
                  <tr key={label}>
                    <td>{label}</td>
                    <td style={{ width: '60%' }}>
                      <div style={{ background: 'currentColor', opacity: 0.35, height: '0.6em', width: `${Math.max(1, p * 100)}%` }} />
                    </td>
                    <td>{pct(p)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
          <p className="muted">{analyzed.result.reasoning}</p>
        </div>
      )}
    </div>
  );
}
