import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { externalUrlFor, isNavigationAllowed, isTrustedSender, NO_DICTIONARY_URL, permissionDecision } from '../../../electron/main/policy';
import { REPO_ROOT } from '../../helpers/owner';

const ORIGIN = 'http://127.0.0.1:41234';
const ours = new Set([7, 9]);

describe('Electron shell policy', () => {
  it('hands the token only to the top frame of our own window showing our origin', () => {
    expect(isTrustedSender({ webContentsId: 7, frameUrl: `${ORIGIN}/#/capture`, isMainFrame: true }, ours, ORIGIN)).toBe(true);
    // Another webContents (a window we did not create), a subframe, another origin, a gone frame.
    expect(isTrustedSender({ webContentsId: 8, frameUrl: `${ORIGIN}/`, isMainFrame: true }, ours, ORIGIN)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: `${ORIGIN}/`, isMainFrame: false }, ours, ORIGIN)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'https://evil.example/', isMainFrame: true }, ours, ORIGIN)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'http://127.0.0.1:41235/', isMainFrame: true }, ours, ORIGIN)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'http://localhost:41234/', isMainFrame: true }, ours, ORIGIN)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'file:///tmp/x.html', isMainFrame: true }, ours, ORIGIN)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'data:text/html,hi', isMainFrame: true }, ours, ORIGIN)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: undefined, isMainFrame: true }, ours, ORIGIN)).toBe(false);
  });

  it('keeps navigation and redirects on our origin', () => {
    expect(isNavigationAllowed(`${ORIGIN}/#/inbox`, ORIGIN)).toBe(true);
    for (const u of ['https://evil.example/', 'http://127.0.0.1:1/', 'file:///etc/passwd', 'javascript:alert(1)', 'about:blank', 'not a url', 'data:text/html,x']) {
      expect(isNavigationAllowed(u, ORIGIN), u).toBe(false);
    }
  });

  it('opens only http(s) links elsewhere in the system browser, never a new app window', () => {
    expect(externalUrlFor('https://example.com/a?b=1', ORIGIN)).toBe('https://example.com/a?b=1');
    expect(externalUrlFor('http://example.com/', ORIGIN)).toBe('http://example.com/');
    for (const u of [`${ORIGIN}/x`, 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'mailto:a@b.c', 'https://user:pw@example.com/', 'nonsense']) {
      expect(externalUrlFor(u, ORIGIN), u).toBeUndefined();
    }
  });

  it('denies every permission and points dictionaries at a local dead address', () => {
    expect(permissionDecision()).toBe(false);
    expect(new URL(NO_DICTIONARY_URL).hostname).toBe('127.0.0.1');
  });

  it('the shell wires the guards: spellcheck off, permission handlers, web-contents-created, sender check on the token IPC', () => {
    // Electron cannot run here; this pins the wiring the policy functions depend on.
    const read = (f: string) => fs.readFileSync(path.join(REPO_ROOT, 'electron/main', f), 'utf8');
    const guards = read('guards.ts');
    for (const s of ['setPermissionRequestHandler', 'setPermissionCheckHandler', 'setSpellCheckerEnabled(false)', 'setSpellCheckerDictionaryDownloadURL', "'web-contents-created'", "'will-navigate'", "'will-redirect'", "'will-attach-webview'", 'setWindowOpenHandler']) {
      expect(guards, s).toContain(s);
    }
    expect(read('windows.ts')).toContain('spellcheck: false');
    expect(read('index.ts')).toMatch(/'mailroom:bridge'[\s\S]{0,80}trustedIpcSender/);
    expect(read('index.ts')).toContain('installAppGuards(');
  });
});
