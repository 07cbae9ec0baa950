import { useCallback, useEffect, useState } from 'react';
import { api, ApiError } from '../../api';
import { HubEvent } from '../../../../shared/api';
import { useHubEvent, useOnReconnect } from '../../hub';
import type { InboxList } from './types';

/** The inbox items with their analyses, reloaded whenever the owner says the inbox changed. */
export function useInbox() {
  const [data, setData] = useState<InboxList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [folders, setFolders] = useState<string[]>([]);

  const reload = useCallback(async () => {
    try {
      const [list, f] = await Promise.all([api.get<InboxList>('/api/inbox'), api.get<{ folders: string[] }>('/api/vault/folders')]);
      setData(list);
      setFolders(f.folders);
      setError(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);
  useHubEvent(HubEvent.inboxChanged, () => void reload());
  useOnReconnect(() => void reload());
  return { data, error, folders, reload };
}
