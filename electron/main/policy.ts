/**
 * The Electron shell's security decisions as pure functions (no electron import), so they are
 * unit-tested: which IPC sender may have the token, which navigations stay in the app, which
 * links go to the system browser.
 */

/** The origin of `url` ('null' for opaque origins), or undefined when it is not a URL. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** True when `url` is on our own origin (the owner's http://127.0.0.1:<port>). */
export function isOwnOrigin(url: string, ownOrigin: string): boolean {
  const o = originOf(url);
  return o !== undefined && o !== 'null' && o === ownOrigin;
}

/** In-app navigation (will-navigate / will-frame-navigate / will-redirect): only within our origin. */
export const isNavigationAllowed = (url: string, ownOrigin: string): boolean => isOwnOrigin(url, ownOrigin);

/**
 * A window.open / target=_blank link: never a new window; an http(s) link elsewhere goes to the
 * system browser (the returned URL), anything else (file:, javascript:, custom schemes, our own
 * origin) goes nowhere.
 */
export function externalUrlFor(url: string, ownOrigin: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.origin === ownOrigin) return undefined;
  if (u.username || u.password) return undefined;
  return u.href;
}

export interface IpcSender {
  /** webContents.id of the sender. */
  webContentsId: number;
  /** URL of the sending frame (event.senderFrame.url); undefined when the frame is gone. */
  frameUrl: string | undefined;
  /** Whether the sending frame is its page's top frame (senderFrame.parent === null). */
  isMainFrame: boolean;
}

/**
 * May this IPC sender have the token? Only the top frame of one of our own windows, showing a
 * page of our own origin — not a frame from elsewhere, not a webContents we did not create.
 */
export function isTrustedSender(sender: IpcSender, ownWebContents: ReadonlySet<number>, ownOrigin: string): boolean {
  if (!ownWebContents.has(sender.webContentsId)) return false;
  if (!sender.isMainFrame || sender.frameUrl === undefined) return false;
  return isOwnOrigin(sender.frameUrl, ownOrigin);
}

/** Permission requests and checks (camera, geolocation, notifications, …): always denied. */
export const permissionDecision = (): false => false;

/**
 * Where Chromium would fetch spellchecker dictionaries from: a local address nothing listens on,
 * so even if spellcheck were turned on nothing would leave the machine.
 */
export const NO_DICTIONARY_URL = 'http://127.0.0.1:9/';
