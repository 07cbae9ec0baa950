import { urgencyHeadText, type Nlp } from '../nlp';
import type { Taxonomy } from './config';
import type { MessageFacts, SenderKind } from './facts';
import type { MessageRow } from './store';
import { cosine, idfOf, vectorize, type ConceptTable, type Vec } from './semantic';
import { intentDocs, type IntentDoc } from './intent-docs';
import { containsPhrase, latestText, tokens } from './text';
import { sentimentScore, type Sentiment } from './sentiment';
import { urgencyOf, type Urgency, type UrgencyInput, type UrgencyModel, type UrgencyVerdict } from './urgency';
import { present } from '../../kernel/errors';

export type { Urgency } from './urgency';
export type { Sentiment } from './sentiment';
export { sentimentOf, sentimentScore } from './sentiment';

export interface TriageResult {
  intent: string;
  urgency: Urgency;
  sentiment: Sentiment;
  confidence: number;
  suggested_route?: string;
}

/** A person's earlier correction on the Mail page, used as a labelled example next time. */
export interface LabelledExample {
  text: string;
  intent?: string;
  urgency?: Urgency;
}

export interface TriageContext {
  facts?: MessageFacts;
  concepts?: ConceptTable;
  /** Earlier messages of the same thread (oldest first), with their stored triage. */
  earlier?: MessageRow[];
  examples?: LabelledExample[];
  /** The person's own address (the inbox's): whether they are in To or only Cc, whether they wrote earlier. */
  me?: string;
  /** How much each urgency signal counts (the shipped weights unless given). */
  urgencyModel?: UrgencyModel;
  /**
   * The mail urgency head (probabilities of low / medium / high for `urgencyHeadText`), when one
   * is loaded; without it the signals alone decide.
   */
  textHead?: (text: string) => Promise<Record<Urgency, number> | undefined>;
  /** Told the urgency verdict (its signals and reasons) of every message triaged. */
  onUrgency?: (v: UrgencyVerdict) => void;
}

const SENDER_WORDS: Record<SenderKind, string> = {
  // (the ways people describe machine-sent mail: "automated", "generated automatically", "auto-generated")
  automated: 'automated automatic automatically generated notification',
  vendor: 'business company service',
  person: '',
};

/** Words saying an intent's mail is written by machines, not people. */
const MACHINE_WRITTEN = /\b(automat(?:ed|ic|ically)|machine[- ]generated|auto[- ]generated|generated (?:automatically|by (?:our|a|the) (?:systems?|platforms?|tools?|machines?)))\b/i;

function senderText(facts: MessageFacts | undefined): string {
  if (!facts) return '';
  const h = facts.headers;
  const bulk = h['list-unsubscribe'] || /bulk|list/i.test(h['precedence'] ?? '') ? ' newsletter mailing list digest promotion announcement unsubscribe' : '';
  // List headers are the surest sign of mass mail: their words count twice.
  return SENDER_WORDS[facts.senderKind] + bulk + bulk;
}

/**
 * What the message is, from its structure rather than its words: a calendar invitation (a
 * `text/calendar` REQUEST, an "Invitation:" subject, When/Where lines) or a reply to one
 * ("Accepted: …"). Intents described as meetings or invitations attract it, as sender words do.
 */
function structureText(msg: MessageRow, facts: MessageFacts | undefined, body: string): string {
  if (/^\s*(accepted|declined|tentative|tentatively accepted)\s*:/i.test(msg.subject)) return ' meeting invitation reply accepted declined calendar';
  const invite = (facts?.events ?? []).some((e) => !e.method || /REQUEST/i.test(e.method)) || /^\s*(invitation|updated invitation|meeting request)\s*:/i.test(msg.subject) || (/^\s*(when|date|time)\s*:/im.test(body) && /^\s*(where|location|room|join)\b[^:\n]*:/im.test(body));
  // a calendar REQUEST is as sure a sign as list headers: its words count twice
  if (invite) return ' meeting invitation calendar appointment call'.repeat(2);
  // Travel documents have a shape whatever their words: flight designators beside airport codes,
  // a hotel's check-in and check-out.
  const t = `${msg.subject}\n${body}`;
  const flight = /\(([A-Z]{3})\)[^\n]*\(([A-Z]{3})\)/.test(t) || /\b[A-Z]{3}\s*(?:->|→|–|to)\s*[A-Z]{3}\b/.test(t) || (/\b[A-Z][A-Z0-9]\s?\d{2,4}\b[^\n]*\b[A-Z]{3}\b[^\n]*\b\d{1,2}:\d{2}\b/.test(t) && /\b(flight|e-?ticket|boarding|booking|itinerary)\b/i.test(t));
  const stay = /\bcheck-?in\b/i.test(t) && /\bcheck-?out\b/i.test(t);
  return flight || stay ? ' travel trip itinerary flight hotel' : '';
}

/** How the person received the message (To, only Cc, neither) and whether they wrote earlier in its thread. */
function addressing(msg: MessageRow, ctx: TriageContext): Pick<UrgencyInput, 'addressed' | 'personWrote'> {
  const me = ctx.me?.toLowerCase();
  if (!me) return {};
  const has = (ps: Array<{ email: string }>) => ps.some((p) => p.email.toLowerCase() === me);
  const addressed = has(msg.to) ? 'to' : has(msg.cc) ? 'cc' : 'other';
  const personWrote = (ctx.earlier ?? []).some((m) => m.direction === 'outbound' || m.from?.email.toLowerCase() === me);
  return { addressed, personWrote };
}

/** Bag-of-words cosine between the message and each intent's description + examples (the old scorer, kept as one signal). */
function lexicalScores(intents: IntentDoc[], text: string): number[] {
  const docs = intents.map((i) => tokens([i.id.replace(/[_-]+/g, ' '), i.description, ...i.examples].join(' ')));
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
  return docs.map((doc) => {
    const d = vec(doc);
    let dot = 0;
    for (const [t, w] of q) dot += w * (d.get(t) ?? 0);
    return dot / (qn * norm(d));
  });
}

/**
 * Triage that generalises to a taxonomy it has never seen:
 * - intent: lexical TF-IDF + semantic similarity (stems + WordNet concepts) to each intent's
 *   description and each example, the kind of sender (automated / vendor / person), earlier
 *   relabels by the person (nearest neighbour), the thread's earlier intent, then the
 *   taxonomy's `precedence` list for near-ties;
 * - urgency: similarity to each level's prose definition and cue words (the taxonomy's and
 *   generic ones), the intent's prior, the sender kind, the on-device urgency head, and thread
 *   context (an incident that was high stays high until a message says it is resolved);
 * - sentiment: a lexicon plus similarity to the taxonomy's sentiment definitions.
 * Deterministic for the same inputs.
 */
export async function triage(msg: MessageRow, tax: Taxonomy, nlp?: Nlp, ctx: TriageContext = {}): Promise<TriageResult> {
  // Curly apostrophes ("won’t", "couldn’t") read as straight ones, so cue words meet them.
  const body = latestText(msg.text).replace(/[’‘]/g, "'");
  const text = `${msg.subject.replace(/[’‘]/g, "'")}\n${body}`.slice(0, 4000);
  const table = ctx.concepts;
  const sender = senderText(ctx.facts) + structureText(msg, ctx.facts, body);
  const msgVec = vectorize(`${text.slice(0, 2000)} ${sender}`, table);

  // ---- intent ----
  // (clauses that send mail to another intent — "… are system_alert, not this" — count for that one)
  const routed = intentDocs(tax);
  const docVecs: Vec[] = routed.map((i) => vectorize([i.id.replace(/[_-]+/g, ' '), i.description, ...i.examples].join(' '), table));
  const exampleVecs: Vec[][] = routed.map((i) => [i.description, ...i.examples].filter(Boolean).map((e) => vectorize(e, table)));
  const idf = idfOf(docVecs);
  const lex = lexicalScores(routed, `${text} ${sender}`);
  // docVecs, exampleVecs, lex and scores all map tax.intents one-to-one.
  const scores = docVecs.map((doc, k) => {
    const sem = cosine(msgVec, doc, idf);
    const ex = Math.max(0, ...(exampleVecs[k] ?? []).map((e) => cosine(msgVec, e, idf)));
    return 0.35 * (lex[k] ?? 0) + 0.45 * sem + 0.2 * ex;
  });
  // The kind of sender an intent is described for: an intent whose mail is "generated automatically"
  // or "machine-generated" is not what a person writes by hand (a forward of such mail still is).
  if (ctx.facts?.senderKind === 'person' && !/^\s*(fwd?|fw|wg|tr)\s*:/i.test(msg.subject)) {
    routed.forEach((d, k) => {
      if (MACHINE_WRITTEN.test(d.description)) scores[k] = (scores[k] ?? 0) * 0.6;
    });
  }
  // The person's own corrections: nearest neighbours among earlier relabels.
  const examples = (ctx.examples ?? []).map((e) => ({ ...e, vec: vectorize(e.text.slice(0, 2000), table) }));
  const nn = examples.map((e) => ({ e, sim: cosine(msgVec, e.vec) })).sort((a, b) => b.sim - a.sim);
  for (const { e, sim } of nn.slice(0, 3)) {
    if (!e.intent || sim < 0.3) continue;
    const k = tax.intents.findIndex((i) => i.id === e.intent);
    if (k >= 0) scores[k] = (scores[k] ?? 0) + 0.6 * sim;
  }
  // A reply keeps the thread's intent unless the text says otherwise.
  const earlierTri = (ctx.earlier ?? []).map((m) => m.triage as { intent?: string; urgency?: Urgency } | null).filter((t): t is { intent?: string; urgency?: Urgency } => !!t);
  const lastTri = earlierTri[earlierTri.length - 1];
  if (lastTri?.intent) {
    const k = tax.intents.findIndex((i) => i.id === lastTri.intent);
    // A short reply ("Sounds good, see you then") is about what the thread is about.
    const short = (body.match(/\S+/g) ?? []).length < 25;
    if (k >= 0) scores[k] = (scores[k] ?? 0) + (short ? 0.2 : 0.06);
  }
  const order = scores.map((s, k) => ({ s, k })).sort((a, b) => b.s - a.s);
  let best = present(order[0], 'an intent of the taxonomy'); // taxonomies have at least one intent
  // Near-ties go to the intent listed first in `precedence`.
  if (tax.precedence.length && order.length > 1) {
    const rank = (k: number) => {
      const r = tax.precedence.indexOf(tax.intents[k]?.id ?? '');
      return r < 0 ? Infinity : r;
    };
    const close = order.filter((o) => o.s >= best.s * 0.92 && o.s > 0);
    best = close.sort((a, b) => rank(a.k) - rank(b.k) || b.s - a.s)[0] ?? best;
  }
  const intent = present(tax.intents[best.k], 'the best intent');
  const second = order.find((o) => o.k !== best.k)?.s ?? 0;
  const hasIntent = best.s > 0.005;

  // ---- urgency ----
  const kind = ctx.facts?.senderKind;
  let head: UrgencyInput['head'];
  if (nlp) {
    try {
      head = (await nlp.intent(text.slice(0, 1000))).urgency?.probs;
    } catch {
      // A model failure must not fail triage; the taxonomy evidence still decides.
    }
  }
  let textHead: UrgencyInput['textHead'];
  if (ctx.textHead) {
    try {
      textHead = await ctx.textHead(urgencyHeadText(msg.subject, body));
    } catch {
      // A model failure must not fail triage: the signals alone decide.
    }
  }
  const verdict = urgencyOf({
    subject: msg.subject.replace(/[’‘]/g, "'"),
    body,
    full: `${msg.subject}\n${(msg.text ?? '').slice(0, 3000)}\n${(msg.html ?? '').slice(0, 6000).replace(/<[^>]*>/g, ' ')}`,
    date: new Date(msg.created_at),
    senderWords: sender,
    facts: ctx.facts,
    tax,
    concepts: table,
    earlier: earlierTri.map((t) => t.urgency).filter((u): u is Urgency => !!u),
    earlierSubjects: (ctx.earlier ?? []).map((m) => m.subject),
    intentLevel: hasIntent ? intent.urgency : undefined,
    neighbours: nn.slice(0, 3).flatMap(({ e, sim }) => (e.urgency ? [{ urgency: e.urgency, sim }] : [])),
    head,
    textHead,
    ...addressing(msg, ctx),
  }, ctx.urgencyModel);
  ctx.onUrgency?.(verdict);
  const { urgency } = verdict;

  // ---- sentiment ----
  const hits = (list: string[], t = text) => list.filter((w) => containsPhrase(t, w)).length;
  // Sign-offs ("Thanks, Amara") say nothing about feeling: drop the last two lines of a longer text.
  const bodyLines = (body || msg.subject).split('\n');
  const feelText = `${msg.subject}\n${(bodyLines.length > 4 ? bodyLines.slice(0, -2) : bodyLines).join('\n')}`;
  const feel = sentimentScore(feelText, kind === 'automated');
  const tones = ['negative', 'neutral', 'positive'] as const;
  const sp = tax.sentiment.prose;
  const sCue = tones.map((l) => hits(tax.sentiment.cues[l] ?? []));
  const [negCue = 0, , posCue = 0] = sCue; // one per tone
  let neg = feel.neg + 1.5 * negCue;
  let pos = feel.pos + 1.5 * posCue;
  // The person's own definitions: the best-matching clause of each level moves the balance.
  const sDocs = tones.map((l) => [sp[l] ?? '', ...(tax.sentiment.cues[l] ?? [])].join(' '));
  if (sDocs[0]?.trim() && sDocs[2]?.trim()) {
    const fv = vectorize(feelText, table);
    const whole = sDocs.map((d) => vectorize(d, table));
    const sidf = idfOf(whole.filter((d) => d.size));
    const sims = sDocs.map((d, i) => {
      const parts = d.split(/\s*[—–;,:]\s*|\.\s+|\bor\b/).filter((c) => c.trim().length > 2).map((c) => vectorize(c, table));
      const wv = whole[i];
      return wv?.size ? 0.5 * cosine(fv, wv, sidf) + 0.5 * Math.max(0, ...parts.map((c) => cosine(fv, c, sidf))) : 0;
    });
    const [sNeg = 0, sNeu = 0, sPos = 0] = sims; // one per tone
    neg += 3 * (sNeg - Math.max(sNeu, sPos));
    pos += 3 * (sPos - Math.max(sNeu, sNeg));
  }
  const sentiment: Sentiment = neg >= 1 && neg - pos >= 0.75 ? 'negative' : pos >= 1 && pos - neg >= 0.75 ? 'positive' : 'neutral';

  const margin = best.s <= 0 ? 0 : (best.s - second) / best.s;
  const confidence = Math.round(Math.min(0.99, Math.max(0.05, !hasIntent ? 0.1 : 0.35 + 0.4 * Math.min(1, best.s * 2) + 0.25 * margin)) * 100) / 100;
  return {
    intent: hasIntent ? intent.id : 'other',
    urgency,
    sentiment,
    confidence,
    ...(hasIntent && intent.route ? { suggested_route: intent.route } : {}),
  };
}
