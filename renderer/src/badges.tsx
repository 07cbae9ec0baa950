import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { call, routes } from './api';
import { HubEvent } from '../../shared/contract';
import { useHubEvent, useOnReconnect } from './hub';
import { capCount } from '../../shared/badge';

const BadgeContext = createContext<Record<string, number>>({});

/** Counts per area (inbox, sessions, mail…) pushed by the owner; the total goes in the title. */
export function BadgeProvider({ children }: { children: ReactNode }) {
  const [badges, setBadges] = useState<Record<string, number>>({});
  const load = useCallback(() => {
    call(routes.core.badges).then(setBadges, () => undefined);
  }, []);
  useEffect(load, [load]);
  useOnReconnect(load);
  useHubEvent(HubEvent.badgeChanged, ({ key, count }) => {
    setBadges((b) => ({ ...b, [key]: count }));
  });
  const total = Object.values(badges).reduce((a, b) => a + b, 0);
  useEffect(() => {
    document.title = total > 0 ? `(${capCount(total)}) Mailroom` : 'Mailroom';
  }, [total]);
  return <BadgeContext.Provider value={badges}>{children}</BadgeContext.Provider>;
}

export function useBadges(): Record<string, number> {
  return useContext(BadgeContext);
}
