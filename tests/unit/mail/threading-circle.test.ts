/**
 * Replies and forwards with no usable headers join the thread of the same subject when they come
 * from the person's circle: the person's own forward of mail they received, a colleague at the
 * person's own organisation's domain — never a stranger, nor another user of a shared mail provider.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mailServiceForTest } from './helpers';

const t = mailServiceForTest();
afterAll(() => t.close());
let n = 0;

async function put(inbox: string, from: string, to: string, subject: string, hour: number, irt?: string): Promise<{ mid: string; thread: string }> {
  const mid = `c${++n}@test.example`;
  const raw = `From: ${from}\nTo: ${to}\nSubject: ${subject}\nMessage-ID: <${mid}>\nDate: Mon, 09 Mar 2026 ${String(hour).padStart(2, '0')}:00:00 +0000\n${irt ? `In-Reply-To: <${irt}>\nReferences: <${irt}>\n` : ''}Content-Type: text/plain; charset=utf-8\n\nText ${n}.\n`;
  await t.mail.importItems(inbox, [{ raw: Buffer.from(raw), source: `${mid}.eml` }]);
  const row = t.db.prepare('SELECT thread_id FROM mail_messages WHERE internet_message_id = ?').get(`<${mid}>`) as { thread_id: string };
  return { mid, thread: row.thread_id };
}

describe('threading: the person\'s circle', () => {
  it("the person's own forward of a reminder, and the colleague's answer to it, stay with the reminder", async () => {
    t.mail.createInbox({ id: 'work', address: 'dana@clinic.example' });
    const reminder = await put('work', 'Brightclean <accounts@brightclean.example>', 'dana@clinic.example', 'FINAL REMINDER: invoice BC-12 overdue', 9);
    const forward = await put('work', 'Dana <dana@clinic.example>', 'Karl <karl@clinic.example>', 'FW: FINAL REMINDER: invoice BC-12 overdue', 10);
    expect(forward.thread).toBe(reminder.thread);
    const answer = await put('work', 'Karl <karl@clinic.example>', 'dana@clinic.example', 'RE: FINAL REMINDER: invoice BC-12 overdue', 11, forward.mid);
    expect(answer.thread).toBe(reminder.thread);
  });

  it("a colleague's reply with no headers to a notification the person got joins it; a stranger's does not", async () => {
    const notice = await put('work', 'Paymo Disputes <disputes@paymo.example>', 'dana@clinic.example', 'Action required: dispute opened on a payment', 12);
    const colleague = await put('work', 'Priya <priya@clinic.example>', 'dana@clinic.example', 'Re: Action required: dispute opened on a payment', 13);
    expect(colleague.thread).toBe(notice.thread);
    const stranger = await put('work', 'Someone <someone@elsewhere.example>', 'dana@clinic.example', 'Re: Action required: dispute opened on a payment', 14);
    expect(stranger.thread).not.toBe(notice.thread);
  });

  it('on a shared mail provider, another user of it is no colleague', async () => {
    t.mail.createInbox({ id: 'home', address: 'dana.k@gmail.com' });
    const notice = await put('home', 'Shop <orders@shop.example>', 'dana.k@gmail.com', 'Your order 5512 has shipped', 9);
    const other = await put('home', 'Ann <ann.w@gmail.com>', 'dana.k@gmail.com', 'Re: Your order 5512 has shipped', 10);
    expect(other.thread).not.toBe(notice.thread);
  });
});
