import type { Config } from '../../kernel/config';
import type { SampleRequest } from '../../kernel/types';
import type { Policy } from './config';
import type { InboxRow, MessageRow, ThreadRow } from './store';
import { structuredLlm } from './llm';
import { containsPhrase, latestText } from './text';

export interface DraftInput {
  thread: ThreadRow;
  messages: MessageRow[];
  inbox: InboxRow;
  policy: Policy;
  goal: string;
  sample?: (req: SampleRequest) => Promise<string>;
  llm?: Config['file']['llm'];
  signal?: AbortSignal;
}

export interface DraftOutput {
  body: string;
  generator: 'sampling' | 'llm' | 'template';
  cited: string[];
  recipients: string[];
}

/** The message a reply answers: the latest inbound one (else the latest). */
export function replyTarget(messages: MessageRow[]): MessageRow | undefined {
  return [...messages].reverse().find((m) => m.direction === 'inbound') ?? messages[messages.length - 1];
}

export function replyRecipients(target: MessageRow | undefined): string[] {
  if (!target) return [];
  const rt = target.reply_to.length ? target.reply_to : target.from ? [target.from] : [];
  return rt.map((p) => p.email);
}

const ORG_WORDS = /\b(agency|client|team|support|service|services|bank|ltd|gmbh|inc|llc|plc|co|company|office|tools?|news|weekly|daily|status|billing|accounts?|sales|info|admin|notifications?|no-?reply|alerts?|bookings?|customer|care|shop|store|group|department|hr|it|pm|finance|dept|the)\b/i;
const ROLE_LOCAL = /^(pm|info|admin|office|team|hello|hi|contact|sales|support|billing|accounts?|noreply|no-reply|mail|post|service|help|jobs|hr|finance|bookings?|orders?|news|status)$/i;

/** The sender's first name when the sender is a person: display name, else a sign-off line, else a name-like address. */
export function firstName(m: MessageRow | undefined): string | undefined {
  if (!m) return undefined;
  const n = m.from?.name?.replace(/["']/g, '').trim();
  if (n && !ORG_WORDS.test(n) && !/[@\d]/.test(n)) {
    const parts = n.includes(',') ? n.split(',').map((x) => x.trim()).reverse() : [n];
    const first = parts[0]?.split(/\s+/)[0] ?? '';
    if (/^\p{Lu}[\p{L}'-]+$/u.test(first)) return first;
  }
  // "Thanks,\nAnna" — a short capitalised last line of the message
  const lines = latestText(m.text).split('\n').map((l) => l.trim()).filter(Boolean);
  const last = lines[lines.length - 1] ?? '';
  if (lines.length > 1 && /^\p{Lu}[\p{L}'-]{1,20}(\s\p{Lu}[\p{L}'-]+)?\.?$/u.test(last) && !ORG_WORDS.test(last)) return (last.split(/\s+/)[0] ?? '').replace(/\.$/, '');
  const local = m.from?.email.split('@')[0] ?? '';
  if (/^[a-z]{3,12}$/i.test(local) && !ROLE_LOCAL.test(local) && !ORG_WORDS.test(local)) return local.charAt(0).toUpperCase() + local.slice(1).toLowerCase();
  return undefined;
}

const IMPERATIVE: Array<[RegExp, string]> = [
  [/^confirm( that)?\s+/i, 'I can confirm that '],
  [/^(tell|let) (them|him|her|the sender) know( that)?\s+/i, ''],
  [/^say( that)?\s+/i, ''],
  [/^decline\s+/i, 'Unfortunately we have to decline '],
  [/^ask (them|him|her|the sender) (to|for|whether|if)\s+/i, 'Could you $2 '],
  [/^thank (them|him|her|the sender) for\s+/i, 'Thank you for '],
  [/^acknowledge\s+/i, 'We have received '],
];

/** The goal as a first-person sentence ("confirm the meeting" → "I can confirm that the meeting."). */
export function goalSentence(goal: string): string {
  let g = goal.trim().replace(/\s+/g, ' ');
  for (const [re, rep] of IMPERATIVE) {
    if (re.test(g)) {
      g = g.replace(re, rep);
      break;
    }
  }
  g = g.charAt(0).toUpperCase() + g.slice(1);
  return /[.!?]$/.test(g) ? g : g + '.';
}

const SENT_SPLIT = /(?<=[.!?])\s+(?=[A-Z0-9"'(\p{Lu}])|\n+/u;

/** The sentences of the latest inbound text that ask for something. */
export function requestsIn(text: string): string[] {
  return text
    .split(SENT_SPLIT)
    .map((x) => x.replace(/\s+/g, ' ').trim())
    .filter((x) => x.length > 8 && x.length < 400)
    .filter((x) => /\?$/.test(x) || /^(could|can|would|will) you\b|^(please|kindly)\b|\b(let me know|tell me|please (send|review|confirm|check|share|let)|i need you to|can you|could you)\b/i.test(x))
    .filter((x) => !/^(hi|hello|dear|hey|thanks|thank you|best|regards|kind regards)\b[^?]*$/i.test(x));
}

const MONEY_ASK = /([$€£¥]\s?\d|\b\d[\d,.]*\s?(?:usd|eur|gbp|chf|euros?|dollars?|pounds?)\b|\b(usd|eur|gbp|chf)\s?\d|\b(budget|spend|price|pricing|cost|refund|discount|pay|payment|invoice|fee|compensat|quote|money)\b)/i;
const DATE_ASK = /\b(when|what date|which date|by when|date|deadline|timeline|eta|how soon|how long|ready by|start date|end date|due date|(?:ready|done|deliver\w*|finish\w*|complete\w*|send|ship\w*|pay|paid)\s+(?:it\s+|this\s+|them\s+)?by|by (?:today|tonight|tomorrow|eod|end of (?:the )?(?:day|week|month)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next week|\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)|\d{1,2}(?:st|nd|rd|th)?\s+\w+|\w+\s+\d{1,2}(?:st|nd|rd|th)?))\b/i;

/** You-form → I-form for an acknowledgement: "send me your notes" → "send you my notes", "when you could" → "when I could". */
export function flipPerson(s: string): string {
  const SUBJ = '(could|can|will|would|should|might|may|do|did|have|had|need|want|think|prefer|know|plan)';
  return s
    .replace(/\b(I|me|my|mine|myself)\b/g, (w) => `\u2063${w}`)
    .replace(/\bare you\b/gi, 'am I')
    .replace(/\byou are\b/gi, 'I am')
    .replace(/\byou're\b/gi, "I'm")
    .replace(new RegExp(`\\byou ${SUBJ}\\b`, 'gi'), (_, v: string) => `I ${v}`)
    .replace(/\b(your|yours|yourself|you)\b/gi, (w) => ({ your: 'my', yours: 'mine', yourself: 'myself', you: 'me' })[w.toLowerCase()] ?? w)
    .replace(/\u2063(I|me|my|mine|myself)\b/g, (_, w: string) => ({ I: 'you', me: 'you', my: 'your', mine: 'yours', myself: 'yourself' })[w] ?? w);
}

/** One line answering one request: an acknowledgement, or a placeholder where a commitment needs the person. */
export function answerLine(req: string, stance: 'yes' | 'no' | 'open'): string {
  const core = req.replace(/\?$/, '').replace(/^(also|and|so|but)[, ]+/i, '');
  const money = MONEY_ASK.test(core);
  const date = DATE_ASK.test(core);
  if (money || date) {
    const what = core.replace(/^(could|can|would|will) you (also )?(please )?/i, '').replace(/^(please|kindly) /i, '').replace(/^let me know /i, '');
    return `[NEEDS APPROVAL: ${money && date ? 'date and amount' : money ? 'amount' : 'date'} — ${flipPerson(what).replace(/\s+/g, ' ').slice(0, 140)}]`;
  }
  const m = /^(?:could|can|would|will) you (?:also |please )*(.+)$/i.exec(core) ?? /^(?:please|kindly) (.+)$/i.exec(core);
  if (m) {
    const act = flipPerson(m[1] ?? '').replace(/[.!]+$/, '');
    return stance === 'no' ? `I'm afraid I can't ${act} this time.` : `I'll ${act}.`;
  }
  if (/^(are|is|do|does|did|have|has|will|would|can|could|shall|should)\b/i.test(core) || /\?\s*$/.test(req) || /\b(can|could|shall|should) we\b/i.test(core)) {
    const echo = flipPerson(core).slice(0, 120);
    return stance === 'yes' ? 'Yes — happy to.' : stance === 'no' ? "I'm afraid not this time." : quotable(echo) ? `On your question (${echo}?) — I'll come back to you on that.` : "On your question — I'll come back to you on that shortly.";
  }
  const noted = flipPerson(core).slice(0, 160);
  return quotable(noted) ? `Noted: ${noted}.` : "Noted — I'll come back to you on this.";
}

/** The goal as a sentence for the email, only when it states content (never a bare instruction). */
export function goalContent(goal: string): string | undefined {
  const g = goal.trim().replace(/\s+/g, ' ');
  if (!g || /^(reply|respond|answer|draft|write|send a reply|get back)\b/i.test(g)) return undefined;
  if (IMPERATIVE.some(([re]) => re.test(g)) || /^(we|i)\b/i.test(g)) return goalSentence(g);
  return undefined;
}

/** Their words can be echoed only when the echo would not read as our own promise of a date or money. */
const quotable = (s: string) => !MONEY.test(s) && !DATE_PROMISE.test(s);

function stanceOf(goal: string): 'yes' | 'no' | 'open' {
  if (/\b(decline|refuse|say no|reject|can'?t|cannot|not able|unable|no thanks)\b/i.test(goal)) return 'no';
  if (/\b(accept|agree|confirm|say yes|yes|approve|happy to|will do|go ahead|sure)\b/i.test(goal)) return 'yes';
  return 'open';
}

const countWords = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * A short real reply built from the thread, without an LLM: greets the sender by first name,
 * thanks them for the specific message, answers each request it can (an acknowledgement, or a
 * `[NEEDS APPROVAL: …]` placeholder where a date or money would be committed), signs as the
 * policy says and stays within its word limit. The person's goal sets the stance (yes / no /
 * open); it is never pasted into the email.
 */
export function templateDraft(input: DraftInput, target: MessageRow | undefined): string {
  const name = firstName(target);
  const p = input.policy;
  const external = replyRecipients(target).some((r) => {
    const d = r.split('@')[1]?.toLowerCase() ?? '';
    return d !== (input.inbox.address.split('@')[1]?.toLowerCase() ?? '') && !p.internalDomains.includes(d);
  });
  const formal = /formal/i.test(p.tone) && !/\b(less|not|in)\s*formal\b/i.test(p.tone);
  const politer = !formal && external && /\bformal\b/i.test(p.guidance);
  const greet = name ? `${formal ? 'Dear' : politer ? 'Hello' : 'Hi'} ${name},` : formal ? 'Dear Sir or Madam,' : 'Hello,';
  const subj = (input.thread.subject || target?.subject || '').replace(/^\s*((re|fwd?|aw)\s*:\s*)+/i, '').replace(/[\s.?!:;,]+$/, '').trim();
  const text = latestText(target?.text ?? '');
  const stance = stanceOf(input.goal);
  const bodyOnly = text.split('\n').slice(0, -2).join('\n');
  const about = subj && quotable(subj) ? ` about “${subj}”` : '';
  const thanksFor = /\b(thank you|thanks)\s+(so much|very much|a lot|for)\b|\b(grateful|appreciate)/i.test(bodyOnly) ? `Thank you for your kind words${about}.` : `Thanks for your message${about}.`;
  const said = goalContent(input.goal);
  const reqs = requestsIn(text)
    .filter((r) => !(said || stance !== 'open') || !/\b(let me know|tell me|confirm|are you|can you make it|will you come|are you coming)\b/i.test(r))
    .slice(0, 4);
  const lines = reqs.map((r) => answerLine(r, stance));
  // A goal that states content ("confirm we will send the quote by Friday") becomes a first-person
  // sentence; a bare instruction ("reply", "accept the invitation") only sets the stance.
  if (said) lines.unshift(said);
  if (!lines.length) lines.push(stance === 'no' ? "I'm afraid that won't work for me this time." : stance === 'yes' ? 'That works for me.' : "I've read it and will follow up if anything is needed.");
  const sig = p.signature || '';
  const closing = /^(best|kind|warm|many|with)?\s*(regards|wishes|thanks|cheers|sincerely|yours|best)\b/i.test(sig) ? '' : /formal/i.test(p.tone) || formal ? 'Kind regards,' : 'Best,';
  const signOff = [closing, sig].filter(Boolean).join('\n');
  const build = (ls: string[]) => [greet, '', thanksFor, '', ...ls, '', signOff].join('\n');
  let body = build(lines);
  // Stay within the policy's limit: drop answer lines from the end, then shorten them.
  while (countWords(body) > p.maxWords && lines.length > 1) {
    lines.pop();
    body = build(lines);
  }
  if (countWords(body) > p.maxWords) body = [greet, '', (lines[0] ?? '').split(/\s+/).slice(0, Math.max(5, p.maxWords - 12)).join(' '), '', signOff].join('\n');
  return body;
}

function prompt(input: DraftInput, target: MessageRow | undefined): SampleRequest {
  const history = input.messages
    .slice(-5)
    .map((m) => `[${m.id}] ${m.direction === 'outbound' ? 'We' : (m.from?.name ?? m.from?.email ?? 'Sender')} (${m.created_at}):\n${latestText(m.text).slice(0, 2000)}`)
    .join('\n\n');
  const p = input.policy;
  const system = [
    `You draft email replies for ${input.inbox.address}. Tone: ${p.tone}. At most ${p.maxWords} words.`,
    p.must.length ? `Always: ${p.must.join('; ')}.` : '',
    p.mustNot.length ? `Never: ${p.mustNot.join('; ')}.` : '',
    p.signature ? `End with exactly this signature:\n${p.signature}` : '',
    p.guidance,
    p.rules.mustNot.length ? `Rules: ${p.rules.mustNot.join(' ')}` : '',
    'Where a date or an amount of money would be committed, write a placeholder "[NEEDS APPROVAL: …]" instead.',
    'Put the email body only (no subject line, no commentary) in "reply".',
  ]
    .filter(Boolean)
    .join('\n');
  return { system, prompt: `Thread "${input.thread.subject}":\n\n${history}\n\nWrite the reply to [${target?.id ?? ''}]. What the reply should achieve (an instruction to you, not text to copy): ${input.goal}`, maxTokens: 800 };
}

/** Checks an LLM draft against the policy before it is accepted: signed (signature appended if missing), within the limit. */
export function acceptLlmDraft(body: string, policy: Policy): string | undefined {
  let b = body.trim();
  if (!b) return undefined;
  if (/^\s*subject\s*:/i.test(b)) b = b.replace(/^\s*subject\s*:.*\n+/i, '');
  if (policy.signature && !b.replace(/\s+/g, ' ').includes(policy.signature.replace(/\s+/g, ' '))) b = `${b}\n\n${policy.signature}`;
  if (countWords(b) > policy.maxWords) return undefined;
  return b;
}

/**
 * Drafts with the connected client's LLM (MCP sampling), else the configured OpenAI-compatible
 * endpoint — asked for `{ "reply": "…" }` with that schema as the response format — else the
 * on-device template. An answer that is not valid JSON, breaks the schema, or breaks the policy's
 * length limit falls back to the next generator; the template always answers.
 */
export async function generateDraft(input: DraftInput): Promise<DraftOutput> {
  const target = replyTarget(input.messages);
  const cited = target ? [target.id] : [];
  const recipients = replyRecipients(target);
  const llm = structuredLlm({ sample: input.sample, llm: input.llm, signal: input.signal });
  if (llm) {
    const req = prompt(input, target);
    try {
      const r = await llm.json<{ reply: string }>({
        name: 'reply',
        system: req.system ?? '',
        prompt: req.prompt,
        schema: { type: 'object', properties: { reply: { type: 'string', minLength: 1 } }, required: ['reply'] },
        maxTokens: req.maxTokens,
      });
      const body = acceptLlmDraft(r.reply, input.policy);
      if (body) return { body, generator: llm.generator, cited, recipients };
    } catch {
      // every generator failed or answered out of schema: the template answers
    }
  }
  return { body: templateDraft(input, target), generator: 'template', cited, recipients };
}

const MONEY = /([$€£¥]\s?\d|\d\s?(?:usd|eur|gbp|chf|euros?|dollars?)\b|\brefund|\bdiscount|\bcompensat|\bcredit (?:you|your account)|\bfree of charge|\bwaive)/i;
const DATE_PROMISE = /\b(by|before|on|until|no later than)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|end of (?:day|week|month)|eod|next week|\d{1,2}(?:st|nd|rd|th)?\s+\w+|\w+\s+\d{1,2}(?:st|nd|rd|th)?|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2})|\bwithin\s+\d+\s+(hours?|days?|weeks?)|\b(we|i)\s+(will|'ll|shall)\s+(ship|deliver|send|fix|resolve|pay)\b/i;

/** Policy checks on any draft, whoever wrote it. Flags are stable strings a UI can explain. */
export function policyRiskFlags(body: string, policy: Policy, ctx: { inboxAddress: string; recipients: string[] }): string[] {
  const flags: string[] = [];
  if (/\[NEEDS APPROVAL\b/i.test(body)) flags.push('needs_approval_placeholder');
  const plain = body.replace(/\[NEEDS APPROVAL[^\]]*\]/gi, ' ');
  if (MONEY.test(plain)) flags.push('promises_money');
  if (DATE_PROMISE.test(plain)) flags.push('promises_date');
  const ownDomain = ctx.inboxAddress.split('@')[1]?.toLowerCase() ?? '';
  const internal = new Set([ownDomain, ...policy.internalDomains]);
  if (ctx.recipients.some((r) => !internal.has(r.split('@')[1]?.toLowerCase() ?? ''))) flags.push('external_recipients');
  if (policy.signature && !body.replace(/\s+/g, ' ').includes(policy.signature.replace(/\s+/g, ' '))) flags.push('missing_signature');
  const wordCount = body.split(/\s+/).filter(Boolean).length;
  if (wordCount > policy.maxWords) flags.push('too_long');
  for (const phrase of policy.mustNot) if (containsPhrase(body, phrase)) flags.push(`must_not:${phrase}`);
  for (const rule of policy.must) {
    const key = rule.toLowerCase().startsWith('thank') ? 'thank' : rule;
    if (!new RegExp(key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i').test(body)) flags.push(`must:${rule}`);
  }
  return flags;
}

export function needsApproval(policy: Policy, flags: string[]): boolean {
  if (policy.approval === 'always') return true;
  if (policy.approval === 'never') return false;
  return flags.length > 0;
}
