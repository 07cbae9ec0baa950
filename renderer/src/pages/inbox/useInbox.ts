import { useCallback, useEffect, useState } from 'react';
import { call, errorText, routes } from '../../api';
import { HubEvent } from '../../../../shared/contract';
import { useHubEvent, useOnReconnect } from '../../hub';
import type { InboxList } from '../../../../shared/contract/inbox';

/** The inbox items with their analyses, reloaded whenever the owner says the inbox changed. */
export function useInbox() {
  const [data, setData] = useState<InboxList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [folders, setFolders] = useState<string[]>([]);

  const reload = useCallback(async () => {
    try {
      const [list, f] = await Promise.all([call(routes.inbox.list), call(routes.vault.folders)]);
      setData(list);
      setFolders(f.folders);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);
  useHubEvent(HubEvent.inboxChanged, () => void reload());
  useOnReconnect(() => void reload());
  return { data, error, folders, reload };
}
