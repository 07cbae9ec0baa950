import type { Participant } from '../../../../shared/contract/mail';

export const who = (p?: Participant) => (p ? p.name || p.email : 'unknown');

export function when(iso: string): string {
  const d = new Date(iso);
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** What each risk flag means to the person approving. */
export const FLAG_TEXT: Record<string, string> = {
  promises_money: 'mentions money, a refund or a discount',
  promises_date: 'commits to a date or deadline',
  external_recipients: 'goes outside your organisation',
  missing_signature: 'lacks the policy signature',
  too_long: 'is longer than the policy allows',
};
export const flagText = (f: string) => FLAG_TEXT[f] ?? (f.startsWith('must_not:') ? `contains “${f.slice(9)}”` : f.startsWith('must:') ? `misses: ${f.slice(5)}` : f);
