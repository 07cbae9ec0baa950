import path from 'node:path';
import { BrowserWindow, shell, session } from 'electron';

export interface WindowTarget {
  url: string;
  token: string;
  preload: string;
}

/** Every window: isolated, sandboxed, no Node, navigation pinned to our own origin. */
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
      spellcheck: true,
    },
  });
  const origin = new URL(target.url).origin;
  win.webContents.on('will-navigate', (e, url) => {
    if (new URL(url).origin !== origin) e.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url) && new URL(url).origin !== origin) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  void session.defaultSession.cookies
    .set({ url: target.url, name: 'mailroom_token', value: target.token, httpOnly: true, sameSite: 'strict' })
    .then(() => win.loadURL(`${target.url}/${hash}`));
  return win;
}

export function preloadPath(dir: string): string {
  return path.join(dir, '..', 'preload', 'index.cjs');
}
