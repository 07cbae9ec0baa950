import { useCallback, useEffect, useState } from 'react';
import { call, routes as R } from '../../api';
import { HubEvent } from '../../../../shared/contract';
import { useHubEvent, useOnReconnect } from '../../hub';
import type { Adapter, Route } from '../../../../shared/contract/router';
import { errorText } from './format';

/** Adapters and routes, kept live: adapter status changes arrive over the hub. */
export function useRouterData() {
  const [adapters, setAdapters] = useState<Adapter[] | null>(null);
  const [routes, setRoutes] = useState<Route[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    Promise.all([call(R.router.listAdapters), call(R.router.listRoutes)])
      .then(([a, r]) => {
        setAdapters(a);
        setRoutes(r);
        setError(null);
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, []);

  useEffect(reload, [reload]);
  useOnReconnect(reload);
  useHubEvent(HubEvent.routerAdapterStatus, (st) => {
    setAdapters((list) => list?.map((a) => (a.id === st.adapter_id ? { ...a, status: st } : a)) ?? list);
  });

  return { adapters, routes, error, reload };
}
