import { contextBridge, ipcRenderer, webUtils } from 'electron';

type DroppedFile = Parameters<typeof webUtils.getPathForFile>[0];

// The renderer's only window to the native side: where the owner is, and two native powers.
// The main process answers null when this frame is not our own window on our own origin.
const bridge = (ipcRenderer.sendSync('mailroom:bridge') as { baseUrl: string; token: string } | null) ?? { baseUrl: '', token: '' };

contextBridge.exposeInMainWorld('mailroom', {
  baseUrl: bridge.baseUrl,
  token: bridge.token,
  native: {
    notify: (title: string, body: string) => ipcRenderer.send('mailroom:notify', String(title), String(body)),
    pathsOf: (files: DroppedFile[]) => files.map((f) => webUtils.getPathForFile(f)),
  },
});
