import { describe, expect, it } from 'vitest';
import { describeMailError, retryDelayMs } from '../../../electron/core/domains/mail/accounts';

const at = { protocol: 'IMAP' as const, host: 'imap.example.com', port: 993 };
const err = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), extra);

describe('mail errors in words', () => {
  it('says the server refused the password for IMAP AUTHENTICATIONFAILED and SMTP 535', () => {
    expect(describeMailError(err('Command failed', { authenticationFailed: true, serverResponseCode: 'AUTHENTICATIONFAILED' }), at)).toMatchObject({ code: 'auth_failed' });
    expect(describeMailError(err('Command failed', { responseText: 'NO LOGIN failed' }), at).message).toMatch(/refused the password/);
    expect(describeMailError(err('Invalid login: 535 5.7.8', { code: 'EAUTH', responseCode: 535 }), { ...at, protocol: 'SMTP' }).message).toMatch(/SMTP server imap.example.com refused the password/);
  });

  it('names the server it could not reach', () => {
    expect(describeMailError(err('connect ECONNREFUSED', { code: 'ECONNREFUSED' }), at)).toEqual({ code: 'unreachable', message: expect.stringContaining('Could not reach imap.example.com:993') as string });
    expect(describeMailError(err('getaddrinfo ENOTFOUND imap.example.com', { code: 'ENOTFOUND' }), at).message).toMatch(/Could not reach imap.example.com:993: there is no server called imap.example.com/);
  });

  it('tells a plaintext port from a bad certificate', () => {
    expect(describeMailError(err('write EPROTO ...:wrong version number', { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), at).message).toMatch(/does not speak TLS/);
    expect(describeMailError(err('self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), at).message).toMatch(/certificate was not accepted/);
  });
});

describe('IMAP retry backoff', () => {
  it('doubles from 5 s and stops growing at 15 minutes', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(8)).toBe(640_000);
    expect(retryDelayMs(9)).toBe(900_000);
    expect(retryDelayMs(500)).toBe(900_000);
  });
});
