import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { HubEvent } from '../../../shared/contract';
import { useHubEvent } from '../hub';

export interface Toast {
  id: number;
  title: string;
  body?: string;
  kind?: 'info' | 'error';
  action?: { label: string; run: () => void };
  /** ms; 0 keeps it until dismissed */
  timeout?: number;
}

interface ToastApi {
  show(t: Omit<Toast, 'id'>): number;
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastApi | null>(null);
let nextId = 1;

/** In-app toasts; owner notifications arrive as hub events and show here (and natively if hidden). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (t: Omit<Toast, 'id'>) => {
      const id = nextId++;
      setToasts((ts) => [...ts.slice(-3), { ...t, id }]);
      const timeout = t.timeout ?? 6_000;
      if (timeout > 0) setTimeout(() => dismiss(id), timeout);
      return id;
    },
    [dismiss],
  );
  useHubEvent(HubEvent.notification, (n) => {
    const { title, body } = n as { title: string; body: string };
    show({ title, body });
    if (document.hidden) {
      if (window.mailroom?.native) window.mailroom.native.notify(title, body);
      else if ('Notification' in window && Notification.permission === 'granted') new Notification(title, { body });
    }
  });
  return (
    <ToastContext.Provider value={{ show, dismiss }}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.kind === 'error' ? 'toast-error' : ''}`} role={t.kind === 'error' ? 'alert' : 'status'}>
            <div className="toast-text">
              <strong>{t.title}</strong>
              {t.body && <span>{t.body}</span>}
            </div>
            {t.action && (
              <button
                className="btn btn-small"
                onClick={() => {
                  t.action!.run();
                  dismiss(t.id);
                }}
              >
                {t.action.label}
              </button>
            )}
            <button className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToasts(): ToastApi {
  const v = useContext(ToastContext);
  if (!v) throw new Error('useToasts outside ToastProvider');
  return v;
}
