import { useCallback, useEffect, useState } from 'react';
import { call, routes } from '../../api';
import { useHubEvent, useOnReconnect } from '../../hub';
import { HubEvent } from '../../../../shared/contract/hub';
import type { SessionDto } from '../../../../shared/contract/sessions';

/** Every session, kept live from the hub (pending counts, status changes, removals). */
export function useSessions(): { sessions: SessionDto[] | null; error: string | null; reload: () => void } {
  const [sessions, setSessions] = useState<SessionDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    call(routes.sessions.list).then(
      (s) => {
        setSessions(s);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  useEffect(reload, [reload]);
  useOnReconnect(reload);

  const setPending = (sessionId: unknown, count: unknown) => {
    if (typeof sessionId !== 'string' || typeof count !== 'number') return;
    setSessions((list) => list?.map((t) => (t.id === sessionId ? { ...t, pending: count } : t)) ?? list);
  };
  useHubEvent(HubEvent.taskMessageQueued, setPending);
  useHubEvent(HubEvent.taskMessageDelivered, setPending);
  useHubEvent(HubEvent.taskUpdated, (task) => {
    const t = task as SessionDto;
    setSessions((list) => {
      if (!list) return list;
      return list.some((x) => x.id === t.id) ? list.map((x) => (x.id === t.id ? t : x)) : [...list, t];
    });
  });
  useHubEvent(HubEvent.taskRemoved, (id) => setSessions((list) => list?.filter((t) => t.id !== id) ?? list));
  return { sessions, error, reload };
}
