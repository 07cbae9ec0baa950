import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { startTestOwner, tempDir, waitFor, type TestOwner } from '../../helpers/owner';

/**
 * Importing mail: `mailroom mail import` (import-path) and the upload route apply one rule to a
 * file — empty or not-mail is an error with a code and what to do, never a junk message — and the
 * upload route refuses an unknown inbox before reading the body, streaming the body to a private
 * temp file that is removed afterwards.
 */

let owner: TestOwner | undefined;
afterEach(async () => {
  await owner?.close();
  owner = undefined;
});

const EML = Buffer.from('From: Zoe <zoe@example.org>\r\nTo: me@acme.example\r\nSubject: Real one\r\nMessage-ID: <real@example.org>\r\nDate: Tue, 04 Mar 2025 10:00:00 +0000\r\n\r\nHello.\r\n');
const BINARY = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from('IHDR\0\0\0\x10binary junk')]);
const NOT_MAIL_TEXT = Buffer.from('Dear diary,\nthis is a plain text file, not an email.\n');

async function upload(o: TestOwner, inbox: string, filename: string, body: Buffer) {
  const r = await fetch(`${o.url}/api/mail/import?inbox=${inbox}&filename=${encodeURIComponent(filename)}`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` }, body });
  return { status: r.status, body: (await r.json()) as { code?: string; message?: string; imported?: number } };
}

const threadCount = async (o: TestOwner) => (await o.api<Array<{ id: string; threads: number }>>('GET', '/api/mail/inboxes')).body.find((i) => i.id === 'me')!.threads;

describe('mail import: one validation rule for the CLI and the upload route', () => {
  it('refuses an empty, a binary and a plain-text file the same way in both, storing nothing; a real message imports in both', async () => {
    const dataDir = tempDir('mailroom-data-');
    owner = await startTestOwner({ dataDir });
    const o = owner;
    await o.api('POST', '/api/mail/inboxes', { id: 'me', address: 'me@acme.example' });
    const dir = tempDir('mail-files-');
    const cases: Array<[string, Buffer, string]> = [
      ['empty.eml', Buffer.alloc(0), 'empty_file'],
      ['blank.eml', Buffer.from('\n\n  \n'), 'empty_file'],
      ['picture.eml', BINARY, 'not_a_message'],
      ['diary.eml', NOT_MAIL_TEXT, 'not_a_message'],
    ];
    for (const [name, bytes, code] of cases) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      const cli = await runCli(['mail', 'import', file, '--inbox', 'me', '--data-dir', dataDir, '--vault', o.vaultDir]);
      expect(cli.code).not.toBe(0);
      expect(cli.stderr).toContain(name);
      const up = await upload(o, 'me', name, bytes);
      expect({ name, status: up.status, code: up.body.code }).toEqual({ name, status: 400, code });
      // Same rule, same words: the CLI prints the message the route returns.
      expect(cli.stderr).toContain(up.body.message!.slice(0, 60));
    }
    expect(await threadCount(o)).toBe(0);

    const good = path.join(dir, 'good.eml');
    fs.writeFileSync(good, EML);
    const cli = await runCli(['mail', 'import', good, '--inbox', 'me', '--data-dir', dataDir, '--vault', o.vaultDir]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/Imported 1 of 1/);
    const up = await upload(o, 'me', 'good.eml', EML);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ imported: 0 }); // already there from the CLI: deduplicated
    expect(await threadCount(o)).toBe(1);
  }, 120_000); // five CLI processes, each a cold Node start

  it('a folder import reports a stray empty file as failed and imports the rest', async () => {
    owner = await startTestOwner();
    const o = owner;
    await o.api('POST', '/api/mail/inboxes', { id: 'me', address: 'me@acme.example' });
    const dir = tempDir('mail-folder-');
    fs.writeFileSync(path.join(dir, 'a.eml'), EML);
    fs.writeFileSync(path.join(dir, 'b.eml'), Buffer.alloc(0));
    const r = await o.api<{ imported: number; failed: Array<{ source: string; error: string }> }>('POST', '/api/mail/import-path', { inbox: 'me', path: dir });
    expect(r.body.imported).toBe(1);
    expect(r.body.failed).toEqual([{ source: 'b.eml', error: expect.stringMatching(/'b\.eml' is empty/) }]);
  });
});

describe('mail upload route', () => {
  it('answers 404 for an unknown inbox before reading the body', async () => {
    owner = await startTestOwner();
    const o = owner;
    const u = new URL(`${o.url}/api/mail/import?inbox=nope&filename=big.mbox`);
    // Send the headers and a first chunk of a "1 GiB" body, then nothing more: the answer must come anyway.
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'POST', headers: { authorization: `Bearer ${o.token}`, 'content-length': String(1024 * 1024 * 1024) } }, (r) => {
        let body = '';
        r.on('data', (d) => (body += d));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
        r.on('error', reject);
      });
      req.on('error', () => undefined); // the server may close the socket after answering
      req.write(Buffer.alloc(64 * 1024, 0x41));
      const t = setTimeout(() => reject(new Error('no answer while the body was still incomplete: the server waited for the whole upload')), 10_000);
      req.on('response', () => clearTimeout(t));
    });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ code: expect.stringMatching(/not_found/), message: expect.stringContaining('nope') });
  });

  it('streams the body to a private temp file under the data dir and removes it afterwards', async () => {
    owner = await startTestOwner();
    const o = owner;
    await o.api('POST', '/api/mail/inboxes', { id: 'me', address: 'me@acme.example' });
    const tmp = path.join(o.dataDir, 'tmp');
    const u = new URL(`${o.url}/api/mail/import?inbox=me&filename=m.eml`);
    let req!: http.ClientRequest;
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'POST', headers: { authorization: `Bearer ${o.token}`, 'content-length': String(EML.length) } }, (r) => {
        let body = '';
        r.on('data', (d) => (body += d));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
    });
    req.write(EML.subarray(0, 40));
    // Mid-upload: the part received is on disk in a file only this user can read.
    const files = await waitFor(() => (fs.existsSync(tmp) ? fs.readdirSync(tmp) : []), (f) => f.length === 1, 10_000, 'the upload temp file');
    const st = fs.statSync(path.join(tmp, files[0]));
    expect(st.mode & 0o777).toBe(0o600);
    req.end(EML.subarray(40));
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ imported: 1 });
    expect(fs.readdirSync(tmp)).toEqual([]);

    // A refused upload leaves nothing behind either.
    expect((await upload(o, 'me', 'x.eml', Buffer.alloc(0))).status).toBe(400);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});
