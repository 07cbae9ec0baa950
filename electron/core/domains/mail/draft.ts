import type { Config } from '../../kernel/config';
import type { SampleRequest } from '../../kernel/types';
import type { Policy } from './config';
import type { InboxRow, MessageRow, ThreadRow } from './store';
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

const firstName = (m: MessageRow | undefined) => {
  const n = m?.from?.name?.replace(/["']/g, '').trim();
  if (!n) return undefined;
  const parts = n.includes(',') ? n.split(',').map((s) => s.trim()).reverse() : [n];
  return parts[0].split(/\s+/)[0];
};

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

function templateDraft(input: DraftInput, target: MessageRow | undefined): string {
  const name = firstName(target);
  const formal = /formal/i.test(input.policy.tone);
  const greet = name ? `${formal ? 'Dear' : 'Hi'} ${name},` : formal ? 'Dear Sir or Madam,' : 'Hello,';
  const subject = input.thread.subject ? ` regarding "${input.thread.subject.replace(/^(re|fwd?):\s*/i, '')}"` : '';
  const parts = [greet, '', `Thank you for your message${subject}.`, '', goalSentence(input.goal)];
  if (input.policy.signature) parts.push('', input.policy.signature);
  return parts.join('\n');
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
    'Reply with the email body only: no subject line, no commentary.',
  ]
    .filter(Boolean)
    .join('\n');
  return { system, prompt: `Thread "${input.thread.subject}":\n\n${history}\n\nWrite the reply to [${target?.id ?? ''}]. Goal: ${input.goal}`, maxTokens: 800 };
}

async function openAiCompatible(llm: NonNullable<Config['file']['llm']>, req: SampleRequest, signal?: AbortSignal): Promise<string> {
  const url = llm.base_url.replace(/\/+$/, '') + '/chat/completions';
  const timeout = AbortSignal.timeout(60_000);
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(llm.api_key ? { authorization: `Bearer ${llm.api_key}` } : {}) },
    body: JSON.stringify({ model: llm.model, messages: [...(req.system ? [{ role: 'system', content: req.system }] : []), { role: 'user', content: req.prompt }], max_tokens: req.maxTokens }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!r.ok) throw new Error(`LLM endpoint answered HTTP ${r.status}`);
  const j = (await r.json()) as { choices?: Array<{ message?: { content?: string } }> };
  return j.choices?.[0]?.message?.content ?? '';
}

/**
 * Drafts with the connected client's LLM (MCP sampling), else the configured OpenAI-compatible
 * endpoint, else a deterministic policy template. Model failures fall back to the template.
 */
export async function generateDraft(input: DraftInput): Promise<DraftOutput> {
  const target = replyTarget(input.messages);
  const cited = target ? [target.id] : [];
  const recipients = replyRecipients(target);
  const req = prompt(input, target);
  const tries: Array<['sampling' | 'llm', () => Promise<string>]> = [];
  if (input.sample) tries.push(['sampling', () => input.sample!(req)]);
  if (input.llm) tries.push(['llm', () => openAiCompatible(input.llm!, req, input.signal)]);
  for (const [generator, run] of tries) {
    try {
      const body = (await run()).trim();
      if (body) return { body, generator, cited, recipients };
    } catch {
      // fall through to the next generator; the template always answers
    }
  }
  return { body: templateDraft(input, target), generator: 'template', cited, recipients };
}

const MONEY = /([$€£¥]\s?\d|\d\s?(?:usd|eur|gbp|chf|euros?|dollars?)\b|\brefund|\bdiscount|\bcompensat|\bcredit (?:you|your account)|\bfree of charge|\bwaive)/i;
const DATE_PROMISE = /\b(by|before|on|until|no later than)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|end of (?:day|week|month)|eod|next week|\d{1,2}(?:st|nd|rd|th)?\s+\w+|\w+\s+\d{1,2}(?:st|nd|rd|th)?|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2})|\bwithin\s+\d+\s+(hours?|days?|weeks?)|\b(we|i)\s+(will|'ll|shall)\s+(ship|deliver|send|fix|resolve|pay)\b/i;

/** Policy checks on any draft, whoever wrote it. Flags are stable strings a UI can explain. */
export function policyRiskFlags(body: string, policy: Policy, ctx: { inboxAddress: string; recipients: string[] }): string[] {
  const flags: string[] = [];
  if (MONEY.test(body)) flags.push('promises_money');
  if (DATE_PROMISE.test(body)) flags.push('promises_date');
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
