import { describe, expect, it } from 'vitest';
import { detectSecretArgs, detectSecretParams, looksSecret, maskArgs, maskUrl } from '../../../electron/core/domains/router/secrets';

describe('which adapter values are secret by default', () => {
  it('recognises credential names as a word part, in any case or style', () => {
    const secret = ['DB_PASS', 'GITHUB_PAT', 'PGPASSWORD', 'MYSQL_PWD', 'API_KEY', 'apiKey', 'X-Api-Key', 'x-auth-token', 'Authorization', 'SESSION_ID', 'sessionCookie', 'client.secret', 'AWS_SECRET_ACCESS_KEY', 'SLACK_BEARER', 'PRIVATE_KEY_PEM', 'OPENAI_APIKEY', 'db_passwd', 'credentials', 'SENTRY_DSN', 'access_token'];
    const plain = ['PATH', 'HOME', 'REGION', 'KEYBOARD_LAYOUT', 'MONKEY', 'PATTERN', 'PASSAGE_ID', 'AUTHOR', 'TOKENIZER', 'NODE_ENV', 'LOG_LEVEL', 'port'];
    for (const n of secret) expect([n, looksSecret(n)]).toEqual([n, true]);
    for (const n of plain) expect([n, looksSecret(n)]).toEqual([n, false]);
  });

  it('marks the value after a secret-looking flag, and --flag=value forms, and masks them keeping the flag', () => {
    const args = ['server.js', '--token', 'T1', '--api-key=K1', '-p', 'P1', '--port', '8080', '--password', '--verbose', '--db-pass=', 'plain'];
    const s = detectSecretArgs(args);
    // `-p` is ambiguous (port? password?): left to the user's lock toggle.
    expect(s).toEqual([false, false, true, true, false, false, false, false, false, false, false, false]);
    expect(maskArgs(args, s)).toEqual(['server.js', '--token', '••••••••', '--api-key=••••••••', '-p', 'P1', '--port', '8080', '--password', '--verbose', '--db-pass=', 'plain']);
  });

  it('finds secret URL query parameters and masks only their values', () => {
    const url = 'https://mcp.example/sse?access_token=abc123&v=2&sig=zz&page=1#frag';
    expect(detectSecretParams(url)).toEqual(['access_token', 'sig']);
    expect(maskUrl(url, ['access_token', 'sig'])).toBe('https://mcp.example/sse?access_token=••••••••&v=2&sig=••••••••&page=1#frag');
  });
});
