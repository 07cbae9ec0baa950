import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { REPO_ROOT } from '../../helpers/owner';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** The shared, normative schemas (../shared/contracts/neuralmail), falling back to the repo copy. */
export function sharedContracts() {
  const shared = path.resolve(REPO_ROOT, '..', 'shared', 'contracts', 'neuralmail');
  const dir = fs.existsSync(shared) ? shared : path.join(REPO_ROOT, 'electron/core/domains/mail/contracts');
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.json') ? [path.join(d, e.name)] : []));
  for (const f of walk(dir)) ajv.addSchema(JSON.parse(fs.readFileSync(f, 'utf8')));
  return {
    dir,
    /** Throws with ajv's errors when `value` breaks the named contract (e.g. 'tools/get_thread.output'). */
    assert(name: string, value: unknown) {
      const v = ajv.getSchema(`https://mailroom.local/contracts/neuralmail/${name}.json`);
      if (!v) throw new Error(`no schema ${name}`);
      if (!v(value)) throw new Error(`${name}: ${ajv.errorsText(v.errors)} in ${JSON.stringify(value).slice(0, 400)}`);
    },
  };
}

export interface Received {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

/** A real SMTP server on 127.0.0.1 that records what it accepts. `hold` delays the 250 reply. */
export async function startSmtp(opts: { hold?: () => Promise<void> } = {}) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        received.push({ envelope: { from: String(session.envelope.mailFrom && session.envelope.mailFrom.address), to: session.envelope.rcptTo.map((r) => r.address) }, raw, parsed: await simpleParser(raw) });
        waiters.splice(0).forEach((w) => w());
        if (opts.hold) await opts.hold();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as net.AddressInfo).port)));
  return {
    port,
    received,
    /** Resolves when at least `n` messages were received (or rejects after the timeout). */
    waitFor(n: number, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => (received.length >= n ? (clearTimeout(t), resolve()) : waiters.push(check));
        const t = setTimeout(() => reject(new Error(`SMTP server got ${received.length} of ${n} messages`)), timeoutMs);
        check();
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
