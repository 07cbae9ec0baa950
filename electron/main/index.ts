import path from 'node:path';
import { app, ipcMain, Menu, nativeImage, Tray, type BrowserWindow } from 'electron';
import { resolveConfig } from '../core/host/config';
import { defaultStaticDir, OwnerRunningError, startOwner, type Owner } from '../core/host/owner';
import { electronPlatform } from './platform';
import { installAppGuards, trustedIpcSender } from './guards';
import { preloadPath, secureWindow } from './windows';

// The Electron shell: lifecycle, tray, windows, native powers. All logic lives in electron/core.
function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

let owner: Owner | undefined;
let tray: Tray | undefined;
let mainWindow: BrowserWindow | undefined;
let captureWindow: BrowserWindow | undefined;
let watchingPaused = false;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => openMain());
  app.on('window-all-closed', () => {
    /* stay in the tray */
  });
  void app.whenReady().then(() => {
    // Before any window or session exists: permissions, navigation, new windows, spellchecker.
    installAppGuards(() => (owner ? new URL(owner.url).origin : undefined));
    return start();
  });
}

async function start() {
  const config = resolveConfig({ vault: argValue('--vault'), dataDir: argValue('--data-dir'), port: argValue('--port') });
  try {
    owner = await startOwner(config, {
      staticDir: defaultStaticDir(config.appRoot),
      platform: (hub) => electronPlatform(config.dataDir, () => tray, hub),
    });
  } catch (e) {
    if (e instanceof OwnerRunningError) {
      process.stdout.write(`${e.message}\n`);
      app.quit();
      return;
    }
    throw e;
  }
  const origin = new URL(owner.url).origin;
  ipcMain.on('mailroom:notify', (event, title: unknown, body: unknown) => {
    if (!trustedIpcSender(event, origin)) return;
    void owner?.core.ctx.platform.notify({ title: String(title), body: String(body) });
  });
  // The token goes only to the top frame of our own window showing our own origin.
  ipcMain.on('mailroom:bridge', (event) => {
    if (!trustedIpcSender(event, origin)) {
      owner?.core.log.warn('refused the token to an IPC sender that is not our window', { frame: event.senderFrame?.url ?? null });
      event.returnValue = null;
      return;
    }
    event.returnValue = { baseUrl: owner!.url, token: owner!.token };
  });
  tray = new Tray(nativeImage.createFromPath(path.join(config.appRoot, 'resources', 'tray.png')));
  tray.setToolTip('Mailroom');
  tray.on('click', () => openMain());
  rebuildMenu();
  openMain();
  app.on('before-quit', () => {
    void owner?.stop();
  });
}

function target() {
  return { url: owner!.url, token: owner!.token, preload: preloadPath(__dirname) };
}

function openMain() {
  if (!owner) return;
  if (mainWindow && !mainWindow.isDestroyed()) {
    mainWindow.show();
    mainWindow.focus();
    return;
  }
  mainWindow = secureWindow(target(), { width: 1180, height: 780, title: 'Mailroom' });
}

function openCapture() {
  if (!owner) return;
  if (captureWindow && !captureWindow.isDestroyed()) {
    captureWindow.focus();
    return;
  }
  captureWindow = secureWindow(target(), { width: 460, height: 360, title: 'Capture to Mailroom', alwaysOnTop: true, resizable: false }, '#/capture');
}

function rebuildMenu() {
  tray?.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Mailroom', click: () => openMain() },
      { label: 'Capture…', accelerator: 'CommandOrControl+Shift+M', click: () => openCapture() },
      {
        label: 'Pause watching',
        type: 'checkbox',
        checked: watchingPaused,
        click: (item) => {
          watchingPaused = item.checked;
          owner?.core.ctx.events.emit('app:pause-watching', { paused: watchingPaused });
        },
      },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
}
