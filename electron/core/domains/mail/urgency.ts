/**
 * Urgency as a small, explainable model: how soon a message needs its reader. Each signal is
 * read from the message, its thread and the person's taxonomy, and adds weight to one level;
 * the level with the most weight wins, and the reasons say which signals decided it.
 * Signals: the taxonomy's own level definitions (prose clauses) and cue words, explicit deadlines
 * relative to the message's Date, whether the message asks the reader for something (a request,
 * a question, a bill to pay, an invitation) or only informs, the kind of sender (automated, bulk,
 * vendor, person), breakage or alarm in the writer's own words, thread state (an open incident
 * stays pressing until it is resolved), the person's relabels and the on-device urgency head.
 */
import type { Taxonomy } from './config';
import type { MessageFacts } from './facts';
import { cosine, idfOf, vectorize, type ConceptTable } from './semantic';
import { sentimentScore } from './sentiment';
import { containsPhrase } from './text';
import { nearestDeadline } from './deadline';
import { present } from '../../kernel/errors';
import { LEVELS, SHIPPED_MODEL, scoreSignals, type Urgency, type UrgencyModel, type UrgencyReason, type UrgencySignal } from './urgency-model';

export type { Urgency, UrgencyModel, UrgencyReason, UrgencySignal } from './urgency-model';

/** Generic urgency evidence, beside the taxonomy's own cue words and definitions. */
export const HIGH_CUES = ['urgent', 'urgently', 'asap', 'as soon as possible', 'immediately', 'right away', 'emergency', 'outage', 'is down', 'are down', 'went down', 'production is', 'in production', 'critical', 'sev1', 'sev 1', 'p1', 'firing', 'failing', 'failed', 'failure', 'overdue', 'final notice', 'final reminder', 'suspended', 'will be suspended', 'cut off', 'disconnected', 'within 24 hours', 'within 48 hours', 'security incident', 'breach', 'no heating', 'no hot water', 'leak', 'flooding', 'blocked', 'blocking', 'degraded', 'penalty', 'legal action', 'eviction', 'offline', 'is broken', 'stopped', 'not responding', 'has not reported', 'will not start', 'will not load', "won't load", 'will not open', "won't open", 'will not boot', "won't boot", 'will not connect', "won't connect", 'will not work', "won't work", 'will not turn on', "won't turn on", 'will not print', "won't print", 'will not sync', "won't sync", 'will not respond', "won't respond", 'will not run', "won't run", 'will not charge', "won't charge", 'will not send', "won't send", 'will not save', "won't save", "won't start", 'cannot log in', 'as soon as you can', 'hospital', 'accident', 'payment failed', 'could not charge', 'bounce', 'need someone today', 'deadline is today', 'due today',
  // security: an automated sender saying someone else may be in the account
  'new sign-in', 'new sign in', 'unusual sign-in', 'unusual activity', 'suspicious', 'secure your account', "wasn't you", 'was not you', 'unauthorised', 'unauthorized', 'compromised', 'hacked',
  // breakage and its consequences
  'error', 'nobody can', 'no one can', 'stop working', 'stopped working', 'will be locked', 'locked out', 'was declined', 'card declined', 'payment declined', 'bounced',
  // people in trouble
  'ambulance', 'a&e', 'emergency room', 'fell', 'injured', 'collapsed', 'police', 'missing', "isn't answering", 'not answering', "can't reach", 'cannot reach', "hasn't come home", 'not come home',
  // weather
  'severe', 'storm warning', 'closed today'];
/**
 * Something arranged has changed (a cancelled flight or class, a delay, a rebooking): it may need
 * the reader to act this week, but nothing is breaking — an ask, not an alarm.
 */
export const DISRUPTION_CUES = ['cancelled', 'canceled', 'call off', 'called off', 'schedule change', 'had to change your', 'has been changed', 'delayed', 'diverted', 'rebooked'];
export const LOW_CUES = ['newsletter', 'digest', 'unsubscribe', 'no rush', 'whenever', 'fyi', 'no action needed', 'no action required', 'nothing to do', 'no need to', 'for your records', 'receipt', 'confirmation', 'is confirmed', 'booking confirmed', 'reminder of', 'when you get a chance', 'at your convenience', 'thank you for', 'thanks for', 'next month', 'read online', 'shop now', 'offer', 'sale', '% off', 'this week in', 'weekly', 'no action is needed', 'nothing needed', 'nothing is needed', 'for your information', 'has been shipped', 'is on its way', 'has accepted', 'has declined', 'accepted:', 'declined:', 'order confirmation', 'thank you for your order', 'paid on', 'amount paid', 'you can ignore', 'endorsed', 'photos', 'we look forward to welcoming', 'call for papers', 'happy to share', 'if useful', 'if helpful',
  // a social invitation that leaves it open is not work
  'if you fancy', 'come along', 'no pressure', 'if you feel like', 'if you like'];
/** A fix applied and being watched ("A fix was deployed … we are monitoring"): the incident is easing, not over. */
export const MITIGATING = /\b(?:a )?fix (?:was|has been|is being) (?:deployed|applied|rolled out|implemented)|\bfix(?:es)? deployed\b|\bwe are (?:actively )?monitoring\b|\bmonitoring the (?:fix|results|recovery)\b/i;
export const RESOLVED = ['resolved', 'all clear', 'back to normal', 'recovered', 'mitigated', 'fixed', 'closed', 'postmortem', 'post-mortem', 'root cause', 'incident is over', 'has been restored', 'restored', 'working again', 'back online', 'running again', 'up and running', 'has been running', 'works again', 'sorted', 'solved', 'all done', 'good to go', "we're back", 'we are back', 'back up', 'running smoothly', 'working fine', 'working normally', 'running normally', 'normal again', 'ran cleanly', 'as normal', 'no longer down'];


export interface UrgencyInput {
  subject: string;
  /** The latest (unquoted) text, curly apostrophes straightened. */
  body: string;
  /** Subject, whole text and HTML as text: bills and receipts are read from all of it. */
  full: string;
  /** The message's own Date: deadlines are read relative to it. */
  date: Date;
  /** Words standing for the sender's kind and the message's structure (see triage). */
  senderWords: string;
  facts?: MessageFacts;
  tax: Taxonomy;
  concepts?: ConceptTable;
  /** Urgency stored on earlier messages of the thread, oldest first. */
  earlier: Urgency[];
  /** Subjects of earlier messages of the thread: a reply that repeats one says nothing new in it. */
  earlierSubjects?: string[];
  /** The urgency the taxonomy gives the chosen intent, if any. */
  intentLevel?: Urgency;
  /** The person's relabels of similar mail, with their similarity. */
  neighbours: Array<{ urgency: Urgency; sim: number }>;
  /** The on-device urgency head's probabilities, if it ran. */
  head?: { low: number; normal: number; high: number };
  /** The mail urgency head's probabilities (models/urgency.onnx, trained on labelled mail), if it ran. */
  textHead?: Record<Urgency, number>;
  /** How the person received the message: named in To, only in Cc, or neither (a list, Bcc). */
  addressed?: 'to' | 'cc' | 'other';
  /** Whether the person has written in this thread before (a conversation, not a cold approach). */
  personWrote?: boolean;
}

export interface UrgencyVerdict {
  urgency: Urgency;
  weights: Record<Urgency, number>;
  /** Every signal that added weight, largest first: the explanation. */
  reasons: UrgencyReason[];
  /** The signals read from the message (what a model weighs). */
  signals: UrgencySignal[];
}

/**
 * How strongly the message resembles each level's definition (prose and cue words), centred on the
 * mean; and the best single clause of each level's definition, uncentred.
 */
function definitionFit(tax: Taxonomy, text: string, table: ConceptTable | undefined): { centred: number[]; clause: number[] } {
  const prose = tax.urgency.prose;
  const levelDocs = LEVELS.map((l) => vectorize([prose[l] ?? '', ...(tax.urgency[l] ?? [])].join(' '), table));
  if (!levelDocs.some((d) => d.size)) return { centred: [0, 0, 0], clause: [0, 0, 0] };
  const lidf = idfOf(levelDocs.filter((d) => d.size));
  // A message usually matches one clause of a definition ("… newsletters, confirmations, receipts …").
  const clauses = LEVELS.map((l) =>
    [...(prose[l] ?? '').split(/\s*[—–;,:]\s*|\s+-\s+|\.\s+|\bor\b|\band\b/), ...(tax.urgency[l] ?? [])]
      .map((c) => c.trim())
      .filter((c) => c.length > 2)
      .map((c) => vectorize(c, table)),
  );
  // Names say nothing about urgency ("a picnic on the Downs" is not "down"): Title-case words
  // inside a sentence leave the message's side of the comparison.
  const plain = text.replace(/(?<=[\p{Ll},;:]\s+)\p{Lu}\p{Ll}+/gu, ' ');
  const v = vectorize(plain, table);
  const clause = levelDocs.map((d, i) => (d.size ? Math.max(0, ...(clauses[i] ?? []).map((c) => cosine(v, c, lidf))) : 0));
  const sims = levelDocs.map((d, i) => (d.size ? 0.5 * cosine(v, d, lidf) + 0.5 * (clause[i] ?? 0) : 0));
  const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
  return { centred: sims.map((s) => s - mean), clause };
}

const REPLY_PREFIX = /^\s*((re|aw|wg|fwd?|tr|sv|vs|antw|r)\s*(\[\d+\])?\s*:\s*)+/i;
const bareSubject = (s: string) => s.replace(REPLY_PREFIX, '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The words that speak for this message now: the subject unless it only repeats the thread's
 * ("AW: URGENT: …" is the first message's alarm, not this one's), and the text without links,
 * file paths and identifiers ("high-error-rate.md" is a name, not an error).
 */
export function ownWords(subject: string, body: string, earlierSubjects: string[] = []): string {
  const bare = bareSubject(subject);
  const repeats = REPLY_PREFIX.test(subject) && earlierSubjects.some((e) => bareSubject(e) === bare);
  const t = `${repeats ? '' : subject}\n${body}`
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .replace(/\S*[/\\]\S*|\S+\.(md|txt|json|ya?ml|ts|js|py|pdf|docx?|xlsx?|csv|html?)\b/gi, ' ')
    .replace(/\b[\p{L}\p{N}]+(?:[-_][\p{L}\p{N}]+){2,}\b/gu, ' ');
  return t.slice(0, 4000);
}

/** A past event named as such ("after Monday's outage", "yesterday's incident") is history, not an alarm. */
export function withoutPastEvents(text: string): string {
  return text.replace(/\b(?:after|since|following|during|from)\s+(?:the\s+|last\s+|this\s+|our\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day's|yesterday's|last\s+week's|weekend's|morning's|(?:\d{1,2}\s+\p{L}+|\p{L}+\s+\d{1,2})(?:'s)?)?\s*[\p{L}-]+|\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day's|yesterday's|last\s+(?:week|month)'s)\s+[\p{L}-]+/giu, ' ');
}

/** Whether the text says a problem is over — not "don't tell them it's fixed yet", "not out of it yet". */
export function saysResolved(text: string): boolean {
  return text.split(/[.;!?\n]+|\s+(?:but|although|though)\s+/i).some((clause) => !/\b(not|never|yet|no longer)\b|n't\b/i.test(clause) && RESOLVED.some((w) => containsPhrase(clause, w)));
}

/**
 * The level a change to something arranged (a cancellation, a delay, a changed flight) belongs
 * to in this person's own definitions: the level whose prose speaks of such changes, else medium
 * (it may need acting on this week, but nothing is broken).
 */
export function disruptionLevel(tax: Taxonomy): Urgency {
  const words = /\b(cancel\w*|chang\w*|delay\w*|rebook\w*|divert\w*|reschedul\w*|called off|disrupt\w*)\b/gi;
  const counts = LEVELS.map((l) => ((tax.urgency.prose[l] ?? '').match(words) ?? []).length + (tax.urgency[l] ?? []).filter((c) => new RegExp(words.source, 'i').test(c)).length);
  const best = Math.max(...counts);
  return best > 0 ? present(LEVELS[counts.indexOf(best)], 'a level') : 'medium';
}

const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fourteen: 14, few: 3, couple: 2 };

/**
 * How far ahead a level reaches in this person's own words, in days: "within hours" and "today"
 * are a day, "a day or two" two, "this week" or "the next few days" seven, "about ten days" ten,
 * "two weeks" fourteen. The largest span a definition names; `fallback` when it names none.
 */
export function levelHorizon(prose: string | undefined, fallback: number): number {
  if (!prose) return fallback;
  const spans: number[] = [];
  if (/\b(hours?|today|tonight|right now|immediately)\b/i.test(prose)) spans.push(1);
  if (/\b(this|the|a|within the|next)\s+week\b|\bfew days\b/i.test(prose)) spans.push(7);
  for (const m of prose.matchAll(/\b(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|few|couple)\s+(?:of\s+)?(days?|weeks?)\b/gi)) {
    const n = /^\d+$/.test(m[1] ?? '') ? Number(m[1]) : (NUMBER_WORDS[(m[1] ?? '').toLowerCase()] ?? 0);
    // "bills due weeks from now" names no span; "a day or two" names two.
    const unit = /week/i.test(m[2] ?? '') ? 7 : 1;
    const tail = prose.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 12);
    const alt = /^\s+or\s+(two|three|\d)/i.exec(tail);
    spans.push((alt ? (NUMBER_WORDS[(alt[1] ?? '').toLowerCase()] ?? Number(alt[1])) : n) * unit);
  }
  return spans.length ? Math.max(...spans) : fallback;
}

/** "calls are down 23%", "up by 5 points": a measured change, not something broken. */
export function withoutMeasures(text: string): string {
  return text.replace(/\b(down|up)(?=\s+(?:by\s+)?(?:about\s+|around\s+|nearly\s+|almost\s+|over\s+|roughly\s+)?[\d.,]+\s*(?:%|percent|per\s+cent|points?|x\b))/gi, ' ');
}

/**
 * The severity a monitoring or ticket system states for its own alert ("severity = warning",
 * "Severity: critical"), as a level: critical/major/error → high, warning/minor → medium, info → low.
 */
export function statedSeverity(text: string): Urgency | undefined {
  const m = /\bseverity\s*[:=]\s*["']?([a-z0-9]+)/i.exec(text);
  const v = (m?.[1] ?? '').toLowerCase();
  if (!v) return undefined;
  if (/^(critical|crit|major|high|error|emergency|fatal|page|sev[01]|p[01])$/.test(v)) return 'high';
  if (/^(warning|warn|minor|medium|moderate|sev[23]|p[23])$/.test(v)) return 'medium';
  if (/^(info|informational|low|notice|none|sev[45]|p[45])$/.test(v)) return 'low';
  return undefined;
}

/**
 * An unsolicited approach: the writer offers a way to stop hearing from them ("If you no longer
 * wish to hear from us", "reply unsubscribe", "opt out") in a thread the person never wrote in.
 */
export const OPT_OUT = /\b(no longer wish to (?:hear|receive)|(?:don't|do not) want to hear from|opt[- ]?out|unsubscribe|remove you from (?:our|my|this) (?:list|mailing))\b/i;

/**
 * Whether the person's own high level speaks only of today ("within hours", "a deadline that falls
 * today") — then a deadline tomorrow is an ask for this week, not an alarm.
 */
export function highIsToday(prose: string | undefined): boolean {
  return !!prose && /\b(today|within hours|within the hour|right now)\b/i.test(prose) && !/\b(tomorrow|day or two|24 hours|48 hours|next day|\d+\s+days?|two days)\b/i.test(prose);
}

/** Whether the person's low level speaks of things due later ("bills due weeks from now", "due next month"). */
export function farDuesAreLow(prose: string | undefined): boolean {
  return !!prose && /\b(due|bills?|invoices?|payments?|deadlines?)\b[^.;:]{0,30}\b(weeks?|months?|later|next month)\b/i.test(prose);
}

/**
 * Hand weight of the mail urgency head's signals: none. The head counts only as much as learned
 * weights (urgency-weights.json, bench/_urgency-train.ts) say, L2 towards zero.
 */
export const TEXT_HEAD_WEIGHT = 0;

/**
 * The mail urgency head's probabilities as signals, one per level ("text model says high (0.83)"),
 * centred on a third so an undecided head adds nothing.
 */
export function textHeadSignals(p: Record<Urgency, number>): UrgencySignal[] {
  return LEVELS.filter((l) => Number.isFinite(p[l]) && p[l] !== 1 / 3).map((l) => ({ key: 'text model', level: l, value: p[l] - 1 / 3, hand: TEXT_HEAD_WEIGHT, label: `text model says ${l} (${p[l].toFixed(2)})` }));
}

/**
 * The urgency of one message under a model (the shipped weights unless told), with the signals
 * that decided it. Deterministic for the same input.
 */
export function urgencyOf(a: UrgencyInput, model: UrgencyModel = SHIPPED_MODEL): UrgencyVerdict {
  const signals = urgencySignals(a);
  const { weights, reasons } = scoreSignals(signals, model);
  const max = Math.max(...LEVELS.map((l) => weights[l]));
  const urgency = present(LEVELS.find((l) => weights[l] === max), 'the most likely urgency');
  return { urgency, weights, reasons, signals };
}

/**
 * Every urgency signal of one message: its name, the level it speaks for, how much of it there
 * is and its hand weight. Signals with hand weight 0 are read for the learned model only.
 */
export function urgencySignals(a: UrgencyInput): UrgencySignal[] {
  const signals: UrgencySignal[] = [];
  /** `value` units of a signal whose hand weight is `hand`; `label` adds details for the explanation. */
  const sig = (key: string, level: Urgency, hand: number, value = 1, label = key) => {
    if (!value) return;
    const same = signals.find((s) => s.key === key && s.level === level);
    if (same) same.value += value;
    else signals.push({ key, level, value, hand, label });
  };
  const { body, subject, tax, facts } = a;
  const text = `${subject}\n${body}`.slice(0, 4000);
  // Most mail needs nothing from the reader: the prior favours low; an explicit ask earns medium.
  sig('prior', 'low', 0.15);
  sig('prior', 'medium', 0.1);
  sig('prior', 'high', 0);
  const fit = definitionFit(tax, `${text.slice(0, 2000)} ${a.senderWords}`, a.concepts);
  fit.centred.forEach((d, i) => sig('definition', present(LEVELS[i], 'a level'), 4, d));
  // (for the learned model: the best clause of each definition, and which level's definition fits best)
  fit.clause.forEach((c, i) => sig('definition clause', present(LEVELS[i], 'a level'), 0, c));
  const bestFit = Math.max(...fit.centred);
  if (bestFit > 0) sig('definition fits best', present(LEVELS[fit.centred.indexOf(bestFit)], 'a level'), 0);
  // The person's urgency corrections on similar mail.
  for (const n of a.neighbours.slice(0, 3)) if (n.sim >= 0.4) sig('relabels', n.urgency, 1.5, n.sim);

  // Whether the mail asks anything of the reader: a request or question leans medium, none leans low.
  // A bare question ("Fancy joining?") is weaker evidence than a request ("Could you review …").
  const askText = body || subject;
  const full = a.full;
  // A bill still to pay is an ask; a receipt for one already paid is not.
  // (the line naming the payment also names a date or a sum: "payable only on a successful hire" is a fee term, not a bill)
  const payLines = full.split('\n').filter((l) => /\b(payable|payment due|due date|due by|due on|amount due|total due|balance due|please pay|pay by)\b|^\s*due\b/i.test(l));
  const payDue = payLines.some((l) => /\d/.test(l)) && !/\b(amount paid|paid on|has been paid|payment received|no action (?:is )?(?:needed|required)|(?:collect(?:ed)?|taken|paid|charged) (?:it )?by direct debit|will be (?:collected|charged|debited) automatically)\b/i.test(full);
  // An invitation (a calendar REQUEST, or "When: … Where: …" lines) asks for an answer.
  // A meeting proposed in text: a date/time line with a place, the attendees or a video-call link.
  const meetLink = /\bhttps?:\/\/\S*(zoom\.|teams\.|meet\.|webex|whereby|jit\.si|\/j\/\d|meetup-join)/i.test(body);
  const bulkSender = !!facts && (!!facts.headers['list-unsubscribe'] || /bulk|list/i.test(facts.headers['precedence'] ?? ''));
  const invite = (facts?.events ?? []).some((e) => !e.method || /REQUEST/i.test(e.method)) || (/^\s*(when|date|time)\s*:/im.test(body) && (/^\s*(where|location|room|attendees)\s*:/im.test(body) || (meetLink && !bulkSender))) || /^invitation:/i.test(subject);
  const request = /\b(could|can|would|will) you\b|\b(could|can|shall) we\b|\b(could|can|may) i\b|\bplease\s+(?!find\b|see\b|note\b|do not\b|don't\b|ignore\b|visit\b|click\b|use\b|enjoy\b|allow\b|contact us\b|accept our\b)[a-z]+|\bbitte\b(?!\s+nicht\b)|\bneed (a|an|the)\b|\binterested in\b|\b(we|i) would like\b|\bstill open\b|\bplease (review|send|approve|confirm|check|sign|let|reply|call|advise|update)|\blet me know\b|\bneed(s)? (you|your)\b|\baction required\b|\bplease\b.*\bby\b|\b(payment|payable|due)\b.{0,40}\b(by|date|on|until)\b|\bdue date\b|\bamount due\b|\btotal due\b/i.test(askText);
  const question = /\?/.test(askText);
  const kind = facts?.senderKind;
  // Only copied in: someone else is asked; the person is kept informed.
  const ccOnly = a.addressed === 'cc';
  if (ccOnly) sig('only in Cc', 'low', 0.55);
  // A cold approach the person never answered asks nothing they owe.
  const pitch = !a.personWrote && OPT_OUT.test(body) && !facts?.headers['list-unsubscribe'];
  if (pitch) sig('unsolicited approach', 'low', 0.7);
  // (copied in, the ask is usually the To person's: it counts for little)
  if (request || payDue || invite) {
    sig('asks the reader', 'medium', 0.55);
    if (ccOnly) sig('asks the reader, only in Cc', 'medium', -0.35);
  }
  // A person's question is usually work to answer; a service's question ("Need help?") is not.
  else if (question) sig(kind === 'automated' ? "a service's question" : 'question', 'medium', kind === 'automated' ? 0.05 : 0.3, 1, 'question');
  else sig('asks nothing', 'low', 0.35);
  if (payDue) sig('bill to pay', 'medium', 0.4);
  // A warm note from a person that asks nothing in particular ("Fancy joining?") is low.
  if (!request && !payDue && !invite && kind === 'person' && sentimentScore(body, false).pos >= 1) sig('warm note', 'low', 0.25);
  if (invite) sig('invitation', 'medium', 0.3);

  const own = ownWords(subject, body, a.earlierSubjects);
  const hits = (list: string[], t = own) => list.filter((w) => containsPhrase(t, w)).length;
  const ownHigh = hits(tax.urgency.high);
  const ownLow = hits(tax.urgency.low);
  const ownMed = hits(tax.urgency.medium);
  // "I won't make it tomorrow" is a person's apology, not breakage: first-person inability is no alarm.
  const alarmText = withoutMeasures(withoutPastEvents(own)).replace(/\b(i|we|i'm|we're|i am|we are)\s+(?:really\s+|just\s+|probably\s+|still\s+)?(won't|will not|can't|cannot|can not|couldn't|could not)\b/gi, ' ').replace(/\b(won't|will not|can't|cannot|can not|couldn't|could not)\s+(?:be able to\s+)?(make|come|attend|join|be there)\b/gi, ' ');
  const genHigh = hits(HIGH_CUES, alarmText);
  const genLow = hits(LOW_CUES);
  const soon = hits(['today', 'tonight', 'this morning', 'this afternoon', 'this evening', 'by end of day', 'eod', 'tomorrow morning', 'tomorrow', 'right now', 'within the hour', 'at noon', 'by noon']);
  // Deadlines in dates relative to the message's own date: a day away presses, a week away asks.
  const deadline = nearestDeadline(`${subject}\n${body}`, a.date);
  // Marketing deadlines ("book by Sunday") press nobody.
  const dlWeight = bulkSender ? 0 : 1;
  // How far "soon" reaches is the person's: "roughly this week" is seven days, "within about ten days" ten.
  const highDays = Math.min(2, levelHorizon(tax.urgency.prose.high, 2));
  const mediumDays = Math.max(highDays + 1, levelHorizon(tax.urgency.prose.medium, 7));
  const todayOnly = highIsToday(tax.urgency.prose.high);
  if (deadline) {
    if (todayOnly && deadline.days >= 1 && deadline.days <= mediumDays) sig('deadline, not today', 'medium', 0.6, dlWeight, `deadline "${deadline.text}" (not today)`);
    else if (deadline.days <= 1) sig('deadline within a day', 'high', 0.9, dlWeight, `deadline "${deadline.text}"`);
    else if (deadline.days <= highDays) sig('deadline within the high horizon', 'high', 0.55, dlWeight, `deadline "${deadline.text}"`);
    else if (deadline.days <= mediumDays) sig('deadline within the medium horizon', 'medium', 0.6, dlWeight, `deadline "${deadline.text}"`);
    else if (deadline.days > 2 * mediumDays) sig('deadline weeks away', 'low', 0.15, 1, `deadline "${deadline.text}" is weeks away`);
    // A bill due beyond the person's own "soon", when their low level names bills due later ("bills due weeks from now").
    if (payDue && deadline.days > mediumDays && farDuesAreLow(tax.urgency.prose.low)) sig('bill due later', 'low', 0.6, 1, `bill due beyond ${mediumDays} days`);
  }
  const pressing = !!deadline && deadline.days <= mediumDays && !bulkSender;
  sig('own high cues', 'high', 1.2, Math.min(2, ownHigh));
  sig('alarm words', 'high', 0.55, Math.min(3, genHigh));
  sig('soon words', 'high', 0.2, Math.min(2, soon));
  sig('own low cues', 'low', 1.0, Math.min(2, ownLow));
  sig('calm words', 'low', 0.35, Math.min(3, genLow));
  sig('own medium cues', 'medium', 0.8, Math.min(2, ownMed));
  // "I've cancelled the duplicate invoice" is the writer's own doing, not a disruption to the reader.
  const disrupted = hits(DISRUPTION_CUES, own.replace(/\b(?:i|we)(?:'ve|'d|'ll| have| had| will)?\s+(?:\p{L}+\s+){0,2}?(?:cancell?ed|rebooked|changed|delayed)\b/giu, ' '));
  // When the person's own high level names such changes ("a travel disruption I have to act on"), a
  // machine's notice of one is that alarm, not routine automated mail.
  const disruptionHigh = !!disrupted && disruptionLevel(tax) === 'high';
  if (disrupted) sig(disruptionHigh ? 'disruption, named high' : 'disruption', disruptionLevel(tax), disruptionHigh ? 0.7 : 0.5);
  // The alert's own stated severity ("severity = warning") says how loud it means to be.
  const severity = statedSeverity(body);
  if (severity) sig('stated severity', severity, 0.8);
  if (a.intentLevel) sig('intent level', a.intentLevel, 0.7);
  // Automated mail is low unless it carries alarm (security, outage) or a near deadline.
  // A notifier relaying a person's ask of the reader ("requested your review", "assigned to you")
  // carries that person's request, not a machine's announcement.
  const relayed = /\b(?:requested|requests|awaiting|needs|waiting for)\s+your\s+(?:review|approval|signature|input|response|decision|feedback)\b|\bassigned\s+(?:this\s+|it\s+)?to\s+you\b|\bmentioned you\b/i.test(askText);
  if (kind === 'automated' && genHigh + ownHigh === 0 && !pressing && !relayed && !disruptionHigh) sig('automated, no alarm', 'low', 0.6);
  if (relayed) sig('relayed ask', 'medium', 0.3);
  // Breakage with time pressure ("the demo is tomorrow and the firmware will not flash").
  if (genHigh + ownHigh > 0 && soon > 0) sig('alarm and soon', 'high', 0.3);
  // A person asking the reader to act at once ("please come as soon as possible").
  if (request && kind === 'person' && /\b(as soon as (?:possible|you can)|asap|right away|straight away|immediately|urgently)\b/i.test(alarmText)) sig('asked to act now', 'high', 0.4);
  if (facts?.headers['list-unsubscribe']) sig('mailing list', 'low', 0.4);
  // Thread context: an open incident stays high until someone says it is resolved.
  const resolved = saysResolved(body || subject) || (genHigh === 0 && sentimentScore(body, false).pos >= 1.5);
  // A fix applied and being watched: no longer an alarm, not yet over.
  const mitigating = !resolved && MITIGATING.test(body);
  if (a.earlier.some((u) => u === 'high')) {
    if (mitigating) {
      sig('fix applied, being monitored', 'high', -1.2);
      sig('fix applied, being monitored', 'medium', 0.6);
    } else if (resolved) {
      // A resolved incident asks nothing more unless the writer asks for something (then the request counts).
      sig('thread resolved', 'high', -1.2);
      sig('thread resolved', 'low', 0.3);
    } else sig('thread still open', 'high', 1.2);
  } else if (resolved) sig('resolved', 'high', -0.5);
  if (a.head) {
    // The head was trained on chat, not mail: a small say, centred so it only moves a close call.
    sig('urgency head', 'low', 0.15, a.head.low - 1 / 3);
    sig('urgency head', 'medium', 0.15, a.head.normal - 1 / 3);
    sig('urgency head', 'high', 0.15, a.head.high - 1 / 3);
  }
  // The mail urgency head: what independently labelled mail with these words was.
  if (a.textHead) for (const t of textHeadSignals(a.textHead)) sig(t.key, t.level, t.hand, t.value, t.label);
  // Read for the learned model only (hand weight 0): who sent it, where it sits in its thread.
  if (kind) sig(`sender ${kind}`, kind === 'person' ? 'medium' : 'low', 0);
  if (a.earlier.length) sig('reply in a thread', 'medium', 0);
  if (a.earlier[a.earlier.length - 1] === 'medium') sig('thread was medium', 'medium', 0);
  if (a.personWrote) sig('person wrote in the thread', 'medium', 0);
  if (a.addressed === 'other') sig('not addressed (list or Bcc)', 'low', 0);
  if (request) sig('request wording', 'medium', 0);
  if (question) sig('question mark', 'medium', 0);
  if (kind === 'automated' && genHigh + ownHigh > 0) sig('automated alarm', 'high', 0);
  return signals;
}
