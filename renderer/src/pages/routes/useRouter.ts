import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api';
import { useHubEvent, useOnReconnect } from '../../hub';
import type { Adapter, AdapterStatus, Route } from './types';
import { ROUTER_EVENTS, errorText } from './types';

/** Adapters and routes, kept live: adapter status changes arrive over the hub. */
export function useRouterData() {
  const [adapters, setAdapters] = useState<Adapter[] | null>(null);
  const [routes, setRoutes] = useState<Route[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    Promise.all([api.get<Adapter[]>('/api/mcp-adapters'), api.get<Route[]>('/api/routes')])
      .then(([a, r]) => {
        setAdapters(a);
        setRoutes(r);
        setError(null);
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, []);

  useEffect(reload, [reload]);
  useOnReconnect(reload);
  useHubEvent(ROUTER_EVENTS.adapterStatus, (s) => {
    const st = s as AdapterStatus;
    setAdapters((list) => list?.map((a) => (a.id === st.adapter_id ? { ...a, status: st } : a)) ?? list);
  });

  return { adapters, routes, error, reload };
}
