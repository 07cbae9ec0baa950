import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { HUB_PATH, routes, type HubEventArgs, type HubEventName, type HubMethodName, type HubMethods } from '../../shared/contract';
import { bridge } from './api';

/**
 * `stopped`: nothing answers at this tab's address (the owner stopped, or came back on another
 * port); `unauthorized`: something answers but refuses this tab's token (another data dir's owner).
 * Both keep retrying the same address, so a restart on the same port reconnects by itself.
 */
export type HubStatus = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'stopped' | 'unauthorized';

/** Why the hub cannot connect: is the owner gone, or is this tab's token refused? */
async function probeOwner(): Promise<HubStatus> {
  try {
    // A bare fetch (not `call`): the status code is the answer, and a 401 must not throw.
    const r = await fetch(bridge.baseUrl + routes.core.health.path, { headers: { authorization: `Bearer ${bridge.token}` }, cache: 'no-store' });
    if (r.status === 401) return 'unauthorized';
    return 'reconnecting';
  } catch {
    return 'stopped';
  }
}

interface HubValue {
  connection: HubConnection;
  status: HubStatus;
}

const HubContext = createContext<HubValue | null>(null);

/**
 * One SignalR connection for the whole app. A dropped connection retries quickly a few times, then
 * every 2 s forever, telling the page whether the owner is gone (`stopped`) meanwhile.
 */
export function HubProvider({ children }: { children: ReactNode }) {
  const [connection] = useState(() =>
    new HubConnectionBuilder()
      .withUrl(bridge.baseUrl + HUB_PATH, { accessTokenFactory: () => bridge.token })
      // A few quick tries (a blip); after that, onclose → the probing loop below.
      .withAutomaticReconnect({ nextRetryDelayInMilliseconds: (ctx) => (ctx.previousRetryCount >= 4 ? null : 250 * 2 ** ctx.previousRetryCount) })
      .configureLogging(LogLevel.None)
      .build(),
  );
  const [status, setStatus] = useState<HubStatus>('connecting');

  useEffect(() => {
    let disposed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    connection.onreconnecting(() => setStatus('reconnecting'));
    connection.onreconnected(() => setStatus('connected'));
    const start = () => {
      if (disposed) return;
      setStatus((s) => (s === 'connected' ? 'reconnecting' : s));
      connection
        .start()
        .then(() => !disposed && setStatus('connected'))
        .catch(async () => {
          if (disposed) return;
          const why = await probeOwner();
          if (disposed) return;
          setStatus(why);
          retry = setTimeout(start, 2_000);
        });
    };
    connection.onclose(() => {
      if (disposed) return;
      setStatus('reconnecting');
      retry = setTimeout(start, 1_000);
    });
    start();
    return () => {
      disposed = true;
      if (retry) clearTimeout(retry);
      if (connection.state !== HubConnectionState.Disconnected) void connection.stop();
    };
  }, [connection]);

  return <HubContext.Provider value={{ connection, status }}>{children}</HubContext.Provider>;
}

export function useHub(): HubValue {
  const v = useContext(HubContext);
  if (!v) throw new Error('useHub outside HubProvider');
  return v;
}

/**
 * Subscribes to a hub event for the component's lifetime; the latest handler is always used.
 * Event names and argument types come from the hub contract (shared/contract/hub.ts).
 */
export function useHubEvent<E extends HubEventName>(event: E, handler: (...args: HubEventArgs[E]) => void): void {
  const { connection } = useHub();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    // The owner broadcasts E with HubEventArgs[E] (the kernel's HubBroadcaster is typed by the same map).
    const fn = (...args: unknown[]) => ref.current(...(args as HubEventArgs[E]));
    connection.on(event, fn);
    return () => connection.off(event, fn);
  }, [connection, event]);
}

/** Calls `reload` on every reconnect so pages catch up on what they missed. */
export function useOnReconnect(reload: () => void): void {
  const { status } = useHub();
  const prev = useRef(status);
  useEffect(() => {
    if (prev.current !== 'connected' && status === 'connected') reload();
    prev.current = status;
  }, [status, reload]);
}

/** Invokes a hub method with the contract's argument and result types. */
export function invokeHub<M extends HubMethodName>(connection: HubConnection, method: M, ...args: HubMethods[M]['args']): Promise<HubMethods[M]['result']> {
  return connection.invoke<HubMethods[M]['result']>(method, ...args);
}
