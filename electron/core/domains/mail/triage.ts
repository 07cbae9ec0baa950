import type { Nlp } from '../nlp';
import type { Taxonomy } from './config';
import type { MessageFacts, SenderKind } from './facts';
import type { MessageRow } from './store';
import { cosine, idfOf, vectorize, type ConceptTable, type Vec } from './semantic';
import { containsPhrase, latestText, tokens } from './text';
import { nearestDeadline } from './deadline';
import { present } from '../../kernel/errors';

export type Urgency = 'low' | 'medium' | 'high';
export type Sentiment = 'negative' | 'neutral' | 'positive';

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
}

/** Words that alone show a writer's feeling, and weaker ones that count half (two are needed). */
const NEG_STRONG = ['angry', 'disappointed', 'disappointing', 'unacceptable', 'frustrated', 'frustrating', 'terrible', 'awful', 'worst', 'complaint', 'complain', 'annoyed', 'furious', 'ridiculous', 'unhappy', 'upset', 'worried', 'concerned', 'still not', 'still no', 'yet again', 'once again', 'third time', 'sorry to hear', 'fed up', 'not happy', 'not acceptable', 'legal action'];
const NEG_WEAK = ['final notice', 'final reminder', 'no heating', 'no hot water', 'outage', 'is down', 'are down', 'firing', 'broken', 'poor', 'fail', 'failed', 'failing', 'failure', 'fault', 'faulty', 'wrong', 'error', 'errors', 'crash', 'crashes', 'down', 'charged twice', 'overdue', 'problem', 'problems', 'cannot', "can't", 'unable', 'suspended', 'suspend', 'unfortunately', 'issue', 'issues', 'leak', 'leaking', 'missing', 'damaged', 'degraded', 'penalty', 'not working', "doesn't work", 'does not work', 'lost', 'late', 'delay', 'delayed', 'cancelled', 'canceled', 'urgent'];
const POS_STRONG = ['thanks so much', 'thank you so much', 'thank you very much', 'many thanks', 'congratulations', 'congrats', 'wonderful', 'delighted', 'fantastic', 'amazing', 'love', 'loved', 'brilliant', 'thrilled', 'well done', 'great work', 'great job', 'exactly what', 'happy birthday', 'so grateful', 'really appreciate', 'much appreciated', 'can\'t wait', 'lovely', 'looking forward'];
const POS_WEAK = ['excellent', 'thank you for', 'thanks for', 'great', 'appreciate', 'appreciated', 'happy', 'awesome', 'glad', 'perfect', 'pleased', 'enjoyed', 'enjoy', 'welcome', 'excited', 'beautiful', 'resolved', 'all clear', 'back to normal', 'good news', 'nice', 'celebrate', 'kind'];
const NEGATED = /\b(not|no|never|hardly)\s+(very\s+)?(happy|great|pleased|glad|good)\b/gi;

/** Lexicon sentiment on the latest (unquoted) text; conservative: most mail is neutral. */
export function sentimentScore(text: string, automated = false): { neg: number; pos: number } {
  const t = text.replace(NEGATED, ' ');
  const weak = automated ? 0.25 : 0.5;
  const neg = NEG_STRONG.filter((w) => containsPhrase(t, w)).length + weak * NEG_WEAK.filter((w) => containsPhrase(t, w)).length + (NEGATED.test(text) ? 1 : 0);
  const pos = POS_STRONG.filter((w) => containsPhrase(t, w)).length + weak * POS_WEAK.filter((w) => containsPhrase(t, w)).length;
  return { neg, pos };
}

export function sentimentOf(text: string, automated = false): Sentiment {
  const { neg, pos } = sentimentScore(text, automated);
  if (neg >= 1 && neg - pos >= 0.75) return 'negative';
  if (pos >= 1 && pos - neg >= 0.75) return 'positive';
  return 'neutral';
}

/** Generic urgency evidence, beside the taxonomy's own cue words and definitions. */
const HIGH_CUES = ['urgent', 'urgently', 'asap', 'as soon as possible', 'immediately', 'right away', 'emergency', 'outage', 'is down', 'are down', 'went down', 'production is', 'in production', 'critical', 'sev1', 'sev 1', 'p1', 'firing', 'failing', 'failed', 'failure', 'overdue', 'final notice', 'final reminder', 'suspended', 'will be suspended', 'cut off', 'disconnected', 'within 24 hours', 'within 48 hours', 'security incident', 'breach', 'no heating', 'no hot water', 'leak', 'flooding', 'blocked', 'blocking', 'degraded', 'penalty', 'legal action', 'eviction', 'offline', 'is broken', 'stopped', 'not responding', 'has not reported', 'will not start', 'will not', "won't", 'cannot log in', 'cancelled', 'canceled', 'as soon as you can', 'as soon as possible', 'hospital', 'accident', 'payment failed', 'could not charge', 'bounce', 'need someone today', 'deadline is today', 'due today',
  // security: an automated sender saying someone else may be in the account
  'new sign-in', 'new sign in', 'unusual sign-in', 'unusual activity', 'suspicious', 'secure your account', "wasn't you", 'was not you', 'unauthorised', 'unauthorized', 'compromised', 'hacked',
  // breakage and its consequences
  'error', 'nobody can', 'no one can', 'stop working', 'stopped working', 'will be locked', 'locked out', 'was declined', 'card declined', 'payment declined', 'bounced',
  // travel disruption
  'schedule change', 'had to change your', 'has been changed', 'delayed', 'diverted', 'rebooked',
  // people in trouble
  'ambulance', 'a&e', 'emergency room', 'fell', 'injured', 'collapsed', 'police', 'missing', "isn't answering", 'not answering', "can't reach", 'cannot reach', "hasn't come home", 'not come home',
  // weather and events called off
  'severe', 'storm warning', 'call off', 'called off', 'closed today'];
const LOW_CUES = ['newsletter', 'digest', 'unsubscribe', 'no rush', 'whenever', 'fyi', 'no action needed', 'no action required', 'nothing to do', 'no need to', 'for your records', 'receipt', 'confirmation', 'is confirmed', 'booking confirmed', 'reminder of', 'when you get a chance', 'at your convenience', 'thank you for', 'thanks for', 'next month', 'read online', 'shop now', 'offer', 'sale', '% off', 'this week in', 'weekly', 'no action is needed', 'nothing needed', 'nothing is needed', 'for your information', 'has been shipped', 'is on its way', 'has accepted', 'has declined', 'accepted:', 'declined:', 'order confirmation', 'thank you for your order', 'paid on', 'amount paid', 'you can ignore', 'endorsed', 'photos', 'we look forward to welcoming', 'call for papers', 'happy to share', 'if useful', 'if helpful',
  // a social invitation that leaves it open is not work
  'if you fancy', 'come along', 'no pressure', 'if you feel like', 'if you like'];
const RESOLVED = ['resolved', 'all clear', 'back to normal', 'recovered', 'mitigated', 'fixed', 'closed', 'postmortem', 'post-mortem', 'root cause', 'incident is over', 'has been restored', 'restored', 'working again', 'back online', 'running again', 'up and running', 'has been running', 'works again', 'sorted', 'solved', 'all done', 'good to go', "we're back", 'we are back', 'back up', 'running smoothly', 'working fine', 'ran cleanly', 'as normal', 'no longer down'];

const SENDER_WORDS: Record<SenderKind, string> = {
  automated: 'automated notification',
  vendor: 'business company service',
  person: '',
};

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

/** Bag-of-words cosine between the message and each intent's description + examples (the old scorer, kept as one signal). */
function lexicalScores(tax: Taxonomy, text: string): number[] {
  const docs = tax.intents.map((i) => tokens([i.id.replace(/[_-]+/g, ' '), i.description, ...i.examples].join(' ')));
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

const softmax = (xs: number[]) => {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
};

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
  const intentDocs: Vec[] = tax.intents.map((i) => vectorize([i.id.replace(/[_-]+/g, ' '), i.description, ...i.examples].join(' '), table));
  const exampleVecs: Vec[][] = tax.intents.map((i) => [i.description, ...i.examples].filter(Boolean).map((e) => vectorize(e, table)));
  const idf = idfOf(intentDocs);
  const lex = lexicalScores(tax, `${text} ${sender}`);
  // intentDocs, exampleVecs, lex and scores all map tax.intents one-to-one.
  const scores = intentDocs.map((doc, k) => {
    const sem = cosine(msgVec, doc, idf);
    const ex = Math.max(0, ...(exampleVecs[k] ?? []).map((e) => cosine(msgVec, e, idf)));
    return 0.35 * (lex[k] ?? 0) + 0.45 * sem + 0.2 * ex;
  });
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
  const levels: Urgency[] = ['low', 'medium', 'high'];
  // Most mail needs nothing from the reader: the prior favours low; an explicit ask earns medium.
  const logit: Record<Urgency, number> = { low: 0.15, medium: 0.1, high: 0 };
  const prose = tax.urgency.prose;
  const levelDocs = levels.map((l) => vectorize([prose[l] ?? '', ...(tax.urgency[l] ?? [])].join(' '), table));
  if (levelDocs.some((d) => d.size)) {
    const lidf = idfOf(levelDocs.filter((d) => d.size));
    // A message usually matches one clause of a definition ("… newsletters, confirmations, receipts …").
    const clauses = levels.map((l) =>
      [...(prose[l] ?? '').split(/\s*[—–;,:]\s*|\s+-\s+|\.\s+|\bor\b|\band\b/), ...(tax.urgency[l] ?? [])]
        .map((c) => c.trim())
        .filter((c) => c.split(/\s+/).length >= 1 && c.length > 2)
        .map((c) => vectorize(c, table)),
    );
    // Names say nothing about urgency ("a picnic on the Downs" is not "down"): Title-case words
    // inside a sentence leave the message's side of the comparison.
    const plain = `${text.slice(0, 2000)} ${sender}`.replace(/(?<=[\p{Ll},;:]\s+)\p{Lu}\p{Ll}+/gu, ' ');
    const levelVec = vectorize(plain, table);
    const sims = levelDocs.map((d, i) => (d.size ? 0.5 * cosine(levelVec, d, lidf) + 0.5 * Math.max(0, ...(clauses[i] ?? []).map((c) => cosine(levelVec, c, lidf))) : 0));
    const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
    levels.forEach((l, i) => (logit[l] += 4 * ((sims[i] ?? 0) - mean))); // sims maps levels
  }
  // The person's urgency corrections on similar mail.
  for (const { e, sim } of nn.slice(0, 3)) if (e.urgency && sim >= 0.4) logit[e.urgency] += 1.5 * sim;
  // Whether the mail asks anything of the reader: a request or question leans medium, none leans low.
  // A bare question ("Fancy joining?") is weaker evidence than a request ("Could you review …").
  const askText = body || msg.subject;
  const full = `${msg.subject}\n${(msg.text ?? '').slice(0, 3000)}\n${(msg.html ?? '').slice(0, 6000).replace(/<[^>]*>/g, ' ')}`;
  // A bill still to pay is an ask; a receipt for one already paid is not.
  const payDue = /\b(payable|payment due|due date|due by|due on|amount due|total due|balance due|please pay|pay by)\b|^\s*due\b/im.test(full) && !/\b(amount paid|paid on|has been paid|payment received|no action is needed)\b/i.test(full);
  // An invitation (a calendar REQUEST, or "When: … Where: …" lines) asks for an answer.
  // A meeting proposed in text: a date/time line with a place, the attendees or a video-call link.
  const meetLink = /\bhttps?:\/\/\S*(zoom\.|teams\.|meet\.|webex|whereby|jit\.si|\/j\/\d|meetup-join)/i.test(body);
  const bulkSender = !!ctx.facts && (!!ctx.facts.headers['list-unsubscribe'] || /bulk|list/i.test(ctx.facts.headers['precedence'] ?? ''));
  const invite = (ctx.facts?.events ?? []).some((e) => !e.method || /REQUEST/i.test(e.method)) || (/^\s*(when|date|time)\s*:/im.test(body) && (/^\s*(where|location|room|attendees)\s*:/im.test(body) || (meetLink && !bulkSender))) || /^invitation:/i.test(msg.subject);
  const request = /\b(could|can|would|will) you\b|\b(could|can|shall) we\b|\b(could|can|may) i\b|\bplease\s+(?!find\b|see\b|note\b|do not\b|don't\b|ignore\b|visit\b|click\b|use\b|enjoy\b|allow\b|contact us\b|accept our\b)[a-z]+|\bbitte\b|\bneed (a|an|the)\b|\binterested in\b|\b(we|i) would like\b|\bstill open\b|\bplease (review|send|approve|confirm|check|sign|let|reply|call|advise|update)|\blet me know\b|\bneed(s)? (you|your)\b|\baction required\b|\bplease\b.*\bby\b|\b(payment|payable|due)\b.{0,40}\b(by|date|on|until)\b|\bdue date\b|\bamount due\b|\btotal due\b/i.test(askText);
  const question = /\?/.test(askText);
  if (request || payDue || invite) logit.medium += 0.55;
  // A person's question is usually work to answer; a service's question ("Need help?") is not.
  else if (question) logit.medium += ctx.facts?.senderKind === 'automated' ? 0.05 : 0.3;
  else logit.low += 0.35;
  if (payDue) logit.medium += 0.4;
  // A warm note from a person that asks nothing in particular ("Fancy joining?") is low.
  if (!request && !payDue && !invite && ctx.facts?.senderKind === 'person' && sentimentScore(body, false).pos >= 1) logit.low += 0.25;
  if (invite) logit.medium += 0.3;
  const hits = (list: string[], t = text) => list.filter((w) => containsPhrase(t, w)).length;
  const ownHigh = hits(tax.urgency.high);
  const ownLow = hits(tax.urgency.low);
  const ownMed = hits(tax.urgency.medium);
  // "I won't make it tomorrow" is a person's apology, not breakage: first-person inability is no alarm.
  const alarmText = text.replace(/\b(i|we|i'm|we're|i am|we are)\s+(?:really\s+|just\s+|probably\s+|still\s+)?(won't|will not|can't|cannot|can not|couldn't|could not)\b/gi, ' ').replace(/\b(won't|will not|can't|cannot|can not|couldn't|could not)\s+(?:be able to\s+)?(make|come|attend|join|be there)\b/gi, ' ');
  const genHigh = hits(HIGH_CUES, alarmText);
  const genLow = hits(LOW_CUES);
  const soon = hits(['today', 'tonight', 'this morning', 'this afternoon', 'this evening', 'by end of day', 'eod', 'tomorrow morning', 'tomorrow', 'right now', 'within the hour', 'at noon', 'by noon']);
  // Deadlines in dates relative to the message's own date: a day away presses, a week away asks.
  const deadline = nearestDeadline(`${msg.subject}\n${body}`, new Date(msg.created_at));
  // Marketing deadlines ("book by Sunday") press nobody.
  const dlWeight = bulkSender ? 0 : 1;
  if (deadline) {
    if (deadline.days <= 1) logit.high += 0.9 * dlWeight;
    else if (deadline.days <= 2) logit.high += 0.55 * dlWeight;
    else if (deadline.days <= 7) logit.medium += 0.6 * dlWeight;
    else if (deadline.days > 14) logit.low += 0.15;
  }
  const pressing = !!deadline && deadline.days <= 7 && !bulkSender;
  logit.high += 1.2 * Math.min(2, ownHigh) + 0.55 * Math.min(3, genHigh) + 0.2 * Math.min(2, soon);
  logit.low += 1.0 * Math.min(2, ownLow) + 0.35 * Math.min(3, genLow);
  logit.medium += 0.8 * Math.min(2, ownMed);
  if (hasIntent && intent.urgency) logit[intent.urgency] += 0.7;
  const kind = ctx.facts?.senderKind;
  // Automated mail is low unless it carries alarm (security, outage) or a near deadline.
  if (kind === 'automated' && genHigh + ownHigh === 0 && !pressing) logit.low += 0.6;
  // Breakage with time pressure ("the demo is tomorrow and the firmware will not flash").
  if (genHigh + ownHigh > 0 && soon > 0) logit.high += 0.3;
  if (ctx.facts?.headers['list-unsubscribe']) logit.low += 0.4;
  // Thread context: an open incident stays high until someone says it is resolved.
  const resolved = RESOLVED.some((w) => containsPhrase(body || msg.subject, w)) || (genHigh === 0 && sentimentScore(body, false).pos >= 1.5);
  if (earlierTri.some((t) => t.urgency === 'high')) {
    if (resolved) {
      // A resolved incident asks nothing more unless the writer asks for something (then the request counts).
      logit.high -= 1.2;
      logit.low += 0.3;
    } else logit.high += 1.2;
  } else if (resolved) logit.high -= 0.5;
  if (nlp) {
    try {
      const r = await nlp.intent(text.slice(0, 1000));
      if (r.urgency) {
        const u = r.urgency.probs;
        // The head was trained on chat, not mail: a small say, centred so it only moves a close call.
        logit.low += 0.15 * (u.low - 1 / 3);
        logit.medium += 0.15 * (u.normal - 1 / 3);
        logit.high += 0.15 * (u.high - 1 / 3);
      }
    } catch {
      // A model failure must not fail triage; the taxonomy evidence still decides.
    }
  }
  const up = softmax(levels.map((l) => logit[l]));
  const urgency = present(levels[up.indexOf(Math.max(...up))], 'the most likely urgency'); // up maps levels

  // ---- sentiment ----
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
