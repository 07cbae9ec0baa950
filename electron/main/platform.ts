import { app, Notification, safeStorage, type Tray } from 'electron';
import type { HubBroadcaster, Platform } from '../core/kernel/types';
import { keyFileSecretBox } from '../core/host/secrets';
import { capCount } from '../../shared/badge';
import { HubEvent } from '../../shared/contract/hub';

/** Native powers for the core: real notifications, tray/app badges, safeStorage secrets. */
export function electronPlatform(dataDir: string, tray: () => Tray | undefined, hub: HubBroadcaster): Platform {
  const badges = new Map<string, number>();
  const fallback = keyFileSecretBox(dataDir);
  return {
    kind: 'electron',
    notify(n) {
      if (Notification.isSupported()) new Notification({ title: n.title, body: n.body }).show();
      hub.broadcast(HubEvent.notification, n);
    },
    setBadge(key, count) {
      badges.set(key, count);
      const total = [...badges.values()].reduce((a, b) => a + b, 0);
      app.setBadgeCount(total);
      const t = tray();
      if (t) {
        const parts = [...badges.entries()].filter(([, c]) => c > 0).map(([k, c]) => `${capCount(c)} ${k}`);
        t.setToolTip(parts.length ? `Mailroom — ${parts.join(', ')}` : 'Mailroom');
        if (process.platform === 'darwin') t.setTitle(total > 0 ? capCount(total) : '');
      }
      hub.broadcast(HubEvent.badgeChanged, { key, count, total });
    },
    badges: () => Object.fromEntries(badges),
    secrets: safeStorage.isEncryptionAvailable()
      ? {
          encrypt: (plain) => 'mrss:' + safeStorage.encryptString(plain).toString('base64'),
          decrypt: (sealed) => (sealed.startsWith('mrss:') ? safeStorage.decryptString(Buffer.from(sealed.slice(5), 'base64')) : fallback.decrypt(sealed)),
        }
      : fallback,
  };
}
