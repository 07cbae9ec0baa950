import type { Nlp } from '../nlp';
import type { Taxonomy } from './config';
import type { MessageRow } from './store';
import { containsPhrase, latestText, tokens } from './text';

export type Urgency = 'low' | 'medium' | 'high';
export type Sentiment = 'negative' | 'neutral' | 'positive';

export interface TriageResult {
  intent: string;
  urgency: Urgency;
  sentiment: Sentiment;
  confidence: number;
  suggested_route?: string;
}

const NEG = ['angry', 'disappointed', 'unacceptable', 'frustrated', 'frustrating', 'terrible', 'awful', 'worst', 'complaint', 'annoyed', 'furious', 'ridiculous', 'broken', 'unhappy', 'poor', 'fail', 'failed', 'failing', 'failure', 'wrong', 'error', 'errors', 'crash', 'crashes', 'down', 'outage', 'charged twice', 'still not', 'overdue', 'final notice', 'sorry to hear', 'problem', 'cannot', "can't", 'unable'];
const POS = ['thanks so much', 'thank you so much', 'great', 'love', 'appreciate', 'appreciated', 'excellent', 'happy', 'awesome', 'congratulations', 'wonderful', 'delighted', 'glad', 'fantastic', 'perfect', 'amazing', 'pleased', 'enjoyed', 'happy birthday'];

/** Lexicon sentiment on the latest (unquoted) text. */
export function sentimentOf(text: string): Sentiment {
  const neg = NEG.filter((w) => containsPhrase(text, w)).length;
  const pos = POS.filter((w) => containsPhrase(text, w)).length;
  if (neg > pos) return 'negative';
  if (pos > neg) return 'positive';
  return 'neutral';
}

/** Bag-of-words cosine between the message and each intent's description + examples. */
function intentScores(tax: Taxonomy, text: string): Array<{ id: string; score: number }> {
  const docs = tax.intents.map((i) => tokens([i.id, i.description, ...i.examples].join(' ')));
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + docs.length / (df.get(t) ?? docs.length));
  const vec = (ts: string[]) => {
    const v = new Map<string, number>();
    for (const t of ts) if (df.has(t)) v.set(t, (v.get(t) ?? 0) + idf(t));
    return v;
  };
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((s, x) => s + x * x, 0)) || 1;
  const q = vec(tokens(text));
  const qn = norm(q);
  return tax.intents.map((intent, i) => {
    const d = vec(docs[i]);
    let dot = 0;
    for (const [t, w] of q) dot += w * (d.get(t) ?? 0);
    return { id: intent.id, score: dot / (qn * norm(d)) };
  });
}

function urgencyCues(tax: Taxonomy, text: string): { high: number; low: number } {
  return {
    high: tax.urgency.high.filter((w) => containsPhrase(text, w)).length,
    low: tax.urgency.low.filter((w) => containsPhrase(text, w)).length,
  };
}

/**
 * Decides intent from the taxonomy (examples + descriptions), urgency from the taxonomy's cue
 * words, the intent's prior and — when loaded — the on-device model's urgency head, and
 * sentiment from a lexicon. Deterministic for the same inputs.
 */
export async function triage(msg: MessageRow, tax: Taxonomy, nlp?: Nlp): Promise<TriageResult> {
  const body = latestText(msg.text);
  const text = `${msg.subject}\n${body}`.slice(0, 4000);
  const scores = intentScores(tax, text).sort((a, b) => b.score - a.score);
  const best = scores[0];
  const second = scores[1]?.score ?? 0;
  const intent = tax.intents.find((i) => i.id === best.id)!;

  const cues = urgencyCues(tax, text);
  // Probabilities over low/medium/high from cues and the intent's prior.
  const p = { low: 0.2, medium: 0.6, high: 0.2 };
  if (intent.urgency === 'low') Object.assign(p, { low: 0.6, medium: 0.3, high: 0.1 });
  if (intent.urgency === 'high') Object.assign(p, { low: 0.05, medium: 0.35, high: 0.6 });
  if (cues.high > 0) Object.assign(p, { low: 0.02, medium: 0.18, high: 0.8 });
  else if (cues.low > 0) Object.assign(p, { low: 0.75, medium: 0.2, high: 0.05 });
  if (nlp) {
    try {
      const r = await nlp.intent(text.slice(0, 1000));
      if (r.urgency) {
        const u = r.urgency.probs;
        // The model's head is low/normal/high and was trained on chat, not mail: explicit cue
        // words in the user's taxonomy outweigh it; without cues it gets an equal say.
        const w = cues.high > 0 || cues.low > 0 ? 0.25 : 0.5;
        p.low = (1 - w) * p.low + w * u.low;
        p.medium = (1 - w) * p.medium + w * u.normal;
        p.high = (1 - w) * p.high + w * u.high;
      }
    } catch {
      // A model failure must not fail triage; the taxonomy evidence still decides.
    }
  }
  const urgency = (Object.entries(p).sort((a, b) => b[1] - a[1])[0][0]) as Urgency;

  const margin = best.score <= 0 ? 0 : (best.score - second) / best.score;
  const confidence = Math.round(Math.min(0.99, Math.max(0.05, best.score <= 0 ? 0.1 : 0.35 + 0.4 * Math.min(1, best.score * 2) + 0.25 * margin)) * 100) / 100;
  return {
    intent: best.score > 0 ? intent.id : 'other',
    urgency,
    sentiment: sentimentOf(body || msg.subject),
    confidence,
    ...(best.score > 0 && intent.route ? { suggested_route: intent.route } : {}),
  };
}
