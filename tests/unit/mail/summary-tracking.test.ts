import { describe, expect, it } from 'vitest';
import { isTrackingUrl, stripTrackingUrls, summarizeThread } from '../../../electron/core/domains/mail/summary';
import type { MessageRow, ThreadRow } from '../../../electron/core/domains/mail/store';

const msg = (text: string): MessageRow =>
  ({ id: 'm1', thread_id: 't1', inbox_id: 'me', direction: 'inbound', from: { email: 'news@shop.test', name: 'Shop' }, to: [], cc: [], reply_to: [], subject: 'Autumn sale', text, created_at: '2026-11-02T09:00:00.000Z' }) as unknown as MessageRow;
const thread = { id: 't1', subject: 'Autumn sale' } as unknown as ThreadRow;

describe('summaries carry no tracking URLs', () => {
  it('drops pixels, tracker hosts and long query strings; keeps short plain links', () => {
    expect(isTrackingUrl('https://shop.list-manage.com/track/open.php?u=abc&id=def')).toBe(true);
    expect(isTrackingUrl('https://u123.ct.sendgrid.net/wf/open?upn=xyz')).toBe(true);
    expect(isTrackingUrl('https://cdn.shop.test/img/spacer.gif')).toBe(true);
    expect(isTrackingUrl('https://img.shop.test/p.png?w=1&h=1')).toBe(true);
    expect(isTrackingUrl('https://shop.test/sale?utm_source=newsletter&utm_medium=email&utm_campaign=autumn2026&mc_eid=1234567')).toBe(true);
    expect(isTrackingUrl('https://shop.test/sale')).toBe(false);
    expect(isTrackingUrl('https://docs.example.com/guide/setup#step-2')).toBe(false);
  });

  it('a newsletter summary reads as text, not as a wall of URLs', () => {
    const text = [
      '[https://shop.list-manage.com/track/open.php?u=8f3a1b&id=42c9d0e&e=77aa]',
      'Our autumn sale starts Monday with 30% off all boots.',
      'See the collection at https://shop.test/sale and pick your size.',
      'Read more (https://click.shop.test/ls/click?upn=aGVsbG8td29ybGQtdGhpcy1pcy1sb25n-Zm9vYmFy&x=1).',
    ].join('\n');
    const s = summarizeThread(thread, [msg(text)]);
    expect(s).toContain('Our autumn sale starts Monday with 30% off all boots.');
    expect(s).toContain('https://shop.test/sale');
    expect(s).not.toMatch(/list-manage|ls\/click|upn=/);
    expect(stripTrackingUrls('a [https://x.test/pixel.gif?w=1] b')).toBe('a b');
  });
});
