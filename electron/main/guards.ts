import { app, session, shell, type IpcMainEvent, type WebContents } from 'electron';
import { externalUrlFor, isNavigationAllowed, isTrustedSender, NO_DICTIONARY_URL, permissionDecision } from './policy';

/** The webContents of windows we created (secureWindow registers them). */
export const ownWebContents = new Set<number>();

export function registerOwnWebContents(wc: WebContents): void {
  const id = wc.id;
  ownWebContents.add(id);
  wc.once('destroyed', () => ownWebContents.delete(id));
}

/** The sender check for IPC that hands out secrets (the token). */
export function trustedIpcSender(event: IpcMainEvent, ownOrigin: string): boolean {
  const frame = event.senderFrame;
  return isTrustedSender({ webContentsId: event.sender.id, frameUrl: frame?.url, isMainFrame: !!frame && frame.parent === null }, ownWebContents, ownOrigin);
}

/**
 * App-wide guards, installed once before any window: every webContents (ours or not) can open
 * no window (http(s) links go to the system browser), cannot navigate or redirect away from our
 * origin and cannot attach a <webview>; every permission is denied; no spellchecker
 * dictionaries are downloaded.
 */
export function installAppGuards(ownOrigin: () => string | undefined): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(permissionDecision()));
  ses.setPermissionCheckHandler(() => permissionDecision());
  ses.setDevicePermissionHandler(() => permissionDecision());
  ses.setSpellCheckerEnabled(false);
  ses.setSpellCheckerDictionaryDownloadURL(NO_DICTIONARY_URL);

  app.on('web-contents-created', (_e, contents) => {
    const allowed = (url: string) => {
      const o = ownOrigin();
      return o !== undefined && isNavigationAllowed(url, o);
    };
    contents.setWindowOpenHandler(({ url }) => {
      const o = ownOrigin();
      const ext = o !== undefined ? externalUrlFor(url, o) : undefined;
      if (ext) void shell.openExternal(ext);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (e) => {
      if (!allowed(e.url)) e.preventDefault();
    });
    contents.on('will-frame-navigate', (e) => {
      if (!allowed(e.url)) e.preventDefault();
    });
    contents.on('will-redirect', (e) => {
      if (!allowed(e.url)) e.preventDefault();
    });
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });
}
