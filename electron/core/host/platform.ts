import type { HubBroadcaster, Platform } from '../kernel/types';
import type { Logger } from '../kernel/log';
import { HubEvent } from '../../../shared/contract';
import { keyFileSecretBox } from './secrets';

/**
 * The headless owner's native powers: notifications and badges go to the web UI over the hub
 * (it shows a toast / web notification and puts the count in the page title).
 */
export function headlessPlatform(dataDir: string, hub: HubBroadcaster, log: Logger): Platform {
  const badges = new Map<string, number>();
  return {
    kind: 'headless',
    notify(n) {
      log.info('notification', { title: n.title });
      hub.broadcast(HubEvent.notification, n);
    },
    setBadge(key, count) {
      badges.set(key, count);
      const total = [...badges.values()].reduce((a, b) => a + b, 0);
      hub.broadcast(HubEvent.badgeChanged, { key, count, total });
    },
    badges: () => Object.fromEntries(badges),
    secrets: keyFileSecretBox(dataDir),
  };
}
