import { afterEach, describe, expect, it } from 'vitest';
import { mailServiceForTest } from './helpers';

/**
 * Remote CSS in every disguise must be gone from what get_thread returns (an MCP client renders
 * that HTML), and the stored message must say remote content was blocked.
 */
const htmlMail = (id: string, html: string) =>
  Buffer.from(
    `From: Zoe <zoe@example.org>\r\nTo: me@acme.example\r\nSubject: Styled ${id}\r\nMessage-ID: <${id}@example.org>\r\n` +
      `Date: Tue, 04 Mar 2025 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n` +
      `<html><body>${html}<p>Hello there.</p></body></html>\r\n`,
  );

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function storeAndRead(html: string) {
  const t = mailServiceForTest();
  open.push(t);
  t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
  const r = await t.mail.importItems('me', [{ raw: htmlMail('m' + Math.random().toString(36).slice(2), html), source: 'test' }]);
  const got = t.mail.getThread({ thread_id: r.thread_ids[0] }) as { messages: Array<{ id: string; html?: string }> };
  const msg = got.messages[0];
  return { html: msg.html ?? '', remote: t.mail.store.message(msg.id).remote_content };
}

const REMOTE_FORMS: Array<[string, string]> = [
  ['url() with entity-encoded quotes', '<p style="background:url(&quot;http://evil.example/1.png&quot;)">a</p>'],
  ['protocol-relative url in double quotes', `<p style='background-image:url("//evil.example/2.png")'>a</p>`],
  ['protocol-relative url in single quotes', `<p style="background-image:url('//evil.example/2b.png')">a</p>`],
  ['image-set()', '<p style="background-image:image-set(&quot;http://evil.example/3.png&quot; 1x)">a</p>'],
  ['CSS escape inside the scheme (ht\\tp)', '<p style="background:url(ht\\tp://evil.example/4.png)">a</p>'],
  ['literal tab inside the scheme', '<p style="background:url(ht\tp://evil.example/4b.png)">a</p>'],
  ['CSS escape inside url (u\\rl)', '<p style="background:u\\rl(http://evil.example/5.png)">a</p>'],
  ['entity CR inside url (u&#13;rl)', '<p style="background:u&#13;rl(http://evil.example/5b.png)">a</p>'],
  ['<style> block', '<style>body { background: url(http://evil.example/6.png) } @import "http://evil.example/6.css";</style><p>a</p>'],
  ['background= attribute', '<table background="http://evil.example/7.png"><tr><td background="//evil.example/7b.png">a</td></tr></table>'],
  ['srcset', '<img src="data:image/png;base64,AAAA" srcset="http://evil.example/8.png 2x">'],
];

describe('mail HTML sanitising through store and get_thread', () => {
  for (const [label, html] of REMOTE_FORMS) {
    it(`drops remote CSS/resources: ${label}, and flags remote_content`, async () => {
      const r = await storeAndRead(html);
      expect(r.html).toContain('Hello there.');
      expect(r.html).not.toMatch(/evil\.example/);
      expect(r.html).not.toMatch(/url\s*\(|image-set|@import|<style/i);
      expect(r.remote).toBe(true);
    });
  }

  it('keeps harmless inline styles and inline images, and does not flag them as remote', async () => {
    const r = await storeAndRead('<p style="color: rgb(10, 20, 30); font-weight: bold; font-family: Arial, sans-serif">a</p><img src="data:image/png;base64,AAAA" alt="x"><a href="https://example.org/x">link</a>');
    expect(r.html).toContain('color:rgb(10, 20, 30)');
    expect(r.html).toContain('font-weight:bold');
    expect(r.html).toContain('data:image/png');
    expect(r.html).toContain('href="https://example.org/x"');
    expect(r.remote).toBe(false);
  });

  it('drops script-ish CSS (expression, behavior) even without a remote URL', async () => {
    const r = await storeAndRead('<p style="width: expression(alert(1)); behavior: x; color: red">a</p>');
    expect(r.html).not.toMatch(/expression|behavior/);
    expect(r.html).toContain('color:red');
  });
});
