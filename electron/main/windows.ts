import path from 'node:path';
import { BrowserWindow, session } from 'electron';
import { registerOwnWebContents } from './guards';

export interface WindowTarget {
  url: string;
  token: string;
  preload: string;
}

/** Every window: isolated, sandboxed, no Node, no spellchecker; navigation pinned to our origin by guards.ts. */
export function secureWindow(target: WindowTarget, opts: Electron.BrowserWindowConstructorOptions, hash = ''): BrowserWindow {
  const win = new BrowserWindow({
    ...opts,
    show: false,
    webPreferences: {
      preload: target.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      // No spellchecker: Chromium would download dictionaries from Google.
      spellcheck: false,
      webviewTag: false,
      nodeIntegrationInSubFrames: false,
    },
  });
  // Navigation, new windows, webviews and permissions are guarded app-wide (guards.ts); only
  // registered windows get the token over IPC.
  registerOwnWebContents(win.webContents);
  win.once('ready-to-show', () => win.show());
  void session.defaultSession.cookies
    .set({ url: target.url, name: 'mailroom_token', value: target.token, httpOnly: true, sameSite: 'strict' })
    .then(() => win.loadURL(`${target.url}/${hash}`));
  return win;
}

export function preloadPath(dir: string): string {
  return path.join(dir, '..', 'preload', 'index.cjs');
}
