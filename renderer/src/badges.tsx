import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api } from './api';
import { useHubEvent, useOnReconnect } from './hub';
import { capCount } from '../../shared/badge';

const BadgeContext = createContext<Record<string, number>>({});

/** Counts per area (inbox, sessions, mail…) pushed by the owner; the total goes in the title. */
export function BadgeProvider({ children }: { children: ReactNode }) {
  const [badges, setBadges] = useState<Record<string, number>>({});
  const load = useCallback(() => {
    api.get<Record<string, number>>('/api/badges').then(setBadges, () => undefined);
  }, []);
  useEffect(load, [load]);
  useOnReconnect(load);
  useHubEvent('BadgeChanged', (p) => {
    const { key, count } = p as { key: string; count: number };
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
