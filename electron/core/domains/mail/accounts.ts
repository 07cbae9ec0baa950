import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import type { MailTestResult } from '../../../../shared/contract/mail';

/** Where a mail connection went: used to say which server failed. */
export interface MailEndpoint {
  protocol: 'IMAP' | 'SMTP';
  host: string;
  port: number;
}

export interface MailErrorWords {
  code: 'auth_failed' | 'unreachable' | 'host_not_found' | 'tls_failed' | 'timeout' | 'mailbox_not_found' | 'closed' | 'server_error';
  message: string;
}

const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_|UNABLE_TO_(VERIFY|GET)_|HOSTNAME_MISMATCH)/;

/**
 * A mail client error (imapflow, nodemailer, node:net / node:tls) in words a person can act on.
 * Never echoes the password; server texts are short status lines, kept as a hint.
 */
export function describeMailError(e: unknown, at: MailEndpoint): MailErrorWords {
  const err = (e ?? {}) as Error & { code?: string; authenticationFailed?: boolean; serverResponseCode?: string; responseText?: string; responseCode?: number; response?: string; reason?: string };
  const where = `${at.host}:${at.port}`;
  // nodemailer wraps socket errors (code ESOCKET / ECONNECTION) and keeps the system code in the message.
  const sys = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ETIMEDOUT)\b/.exec(err.message ?? '')?.[1];
  const code = String((err.code === 'ESOCKET' || err.code === 'ECONNECTION' || !err.code) && sys ? sys : (err.code ?? ''));
  const text = `${err.message ?? ''} ${err.responseText ?? ''} ${err.response ?? ''}`;
  if (err.authenticationFailed || err.serverResponseCode === 'AUTHENTICATIONFAILED' || code === 'EAUTH' || err.responseCode === 535 || /AUTHENTICATIONFAILED|authentication failed|invalid credentials|NO LOGIN/i.test(text)) {
    return { code: 'auth_failed', message: `The ${at.protocol} server ${at.host} refused the password for this user. Check the user name and password (some providers need an app password).` };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EDNS') {
    return { code: 'host_not_found', message: `Could not reach ${where}: there is no server called ${at.host}. Check the server name.` };
  }
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ECONNRESET' || code === 'NoConnection') {
    return { code: 'unreachable', message: `Could not reach ${where}: nothing accepted the connection. Check the server name and port, and that you are online.` };
  }
  if (TLS_CODES.test(code) || /certificate|SSL routines|wrong version number|TLS/i.test(err.message ?? '')) {
    const wrongMode = /wrong version number|packet length too long|unknown protocol/i.test(err.message ?? '') || code === 'ERR_SSL_WRONG_VERSION_NUMBER';
    return {
      code: 'tls_failed',
      message: wrongMode
        ? `The secure (TLS) connection to ${where} failed: the port does not speak TLS from the start. Turn "Secure connection" off for this port, or use the TLS port (IMAP 993, SMTP 465).`
        : `The secure (TLS) connection to ${where} failed: the server's certificate was not accepted (${code || err.message}).`,
    };
  }
  if (/timeout|timed out/i.test(code + ' ' + (err.message ?? ''))) {
    return { code: 'timeout', message: `${where} did not answer in time. Check the server name and port, and that you are online.` };
  }
  if (err.serverResponseCode === 'NONEXISTENT' || /mailbox doesn't exist|unknown mailbox|no such mailbox/i.test(text)) {
    return { code: 'mailbox_not_found', message: `Logged in to ${at.host}, but the folder was not found there. Check the folder name (usually INBOX).` };
  }
  if (/closed|ended/i.test(err.message ?? '')) {
    return { code: 'closed', message: `The ${at.protocol} server ${where} closed the connection.` };
  }
  const hint = (err.responseText || err.response || err.message || String(e)).toString().slice(0, 200);
  return { code: 'server_error', message: `The ${at.protocol} server ${where} answered with an error: ${hint}` };
}

/** Local test servers use self-signed certificates; anything else must present a valid one. */
export const tlsFor = (host: string, secure: boolean) => ({ rejectUnauthorized: secure && !/^(127\.0\.0\.1|localhost|::1)$/.test(host) });

const TIMEOUT_MS = 15_000;

/** Logs in to an IMAP server, opens the folder, logs out. Saves nothing. */
export async function testImap(s: { host: string; port: number; secure: boolean; user: string; password: string; mailbox: string }): Promise<MailTestResult> {
  const t0 = Date.now();
  const client = new ImapFlow({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: { user: s.user, pass: s.password },
    logger: false,
    emitLogs: false,
    tls: tlsFor(s.host, s.secure),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS * 2,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const box = await client.mailboxOpen(s.mailbox || 'INBOX', { readOnly: true });
    const n = box.exists;
    await client.logout().catch(() => client.close());
    return { ok: true, message: `Logged in to ${s.host} as ${s.user}; ${s.mailbox || 'INBOX'} has ${n} message${n === 1 ? '' : 's'}.`, ms: Date.now() - t0 };
  } catch (e) {
    try {
      client.close();
    } catch {
      /* already closed */
    }
    const w = describeMailError(e, { protocol: 'IMAP', host: s.host, port: s.port });
    return { ok: false, message: w.message, code: w.code, ms: Date.now() - t0 };
  }
}

/** Connects to an SMTP server and logs in (when a user is set), without sending anything. */
export async function testSmtp(s: { host: string; port: number; secure: boolean; user?: string; password?: string }): Promise<MailTestResult> {
  const t0 = Date.now();
  const transport = nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    ...(s.user ? { auth: { user: s.user, pass: s.password ?? '' } } : {}),
    tls: tlsFor(s.host, s.secure),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS * 2,
  });
  try {
    await transport.verify();
    return { ok: true, message: s.user ? `Logged in to ${s.host} as ${s.user}; ready to send.` : `${s.host} accepts connections; ready to send (no login).`, ms: Date.now() - t0 };
  } catch (e) {
    const w = describeMailError(e, { protocol: 'SMTP', host: s.host, port: s.port });
    return { ok: false, message: w.message, code: w.code, ms: Date.now() - t0 };
  } finally {
    transport.close();
  }
}

/** The wait before the next IMAP attempt after `failures` failures in a row: 5 s doubling, at most 15 min. */
export function retryDelayMs(failures: number, baseMs = 5_000, maxMs = 15 * 60_000): number {
  if (failures <= 0) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 30));
}
