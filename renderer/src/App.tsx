import { useEffect, type ComponentType } from 'react';
import { HubProvider } from './hub';
import { BadgeProvider, useBadges } from './badges';
import { ToastProvider } from './components/Toasts';
import { ConnectionBanner, ConnectionIndicator } from './components/ConnectionIndicator';
import { IndexStatus } from './components/IndexStatus';
import { useRoute } from './router';
import { InboxPage } from './pages/InboxPage';
import { SessionsPage } from './pages/SessionsPage';
import { RoutesPage } from './pages/RoutesPage';
import { MailPage } from './pages/MailPage';
import { SettingsPage } from './pages/SettingsPage';
import { CapturePage } from './pages/CapturePage';
import { bridge } from './api';
import { Icon } from './components/Icon';
import { PageErrorBoundary } from './components/PageErrorBoundary';

interface NavItem {
  id: string;
  label: string;
  badge?: string;
  page: ComponentType;
}

const NAV: NavItem[] = [
  { id: 'inbox', label: 'Inbox', badge: 'inbox', page: InboxPage },
  { id: 'sessions', label: 'Sessions', badge: 'sessions', page: SessionsPage },
  { id: 'routes', label: 'Routes', page: RoutesPage },
  { id: 'mail', label: 'Mail', badge: 'mail', page: MailPage },
  { id: 'settings', label: 'Settings', page: SettingsPage },
];

function Shell() {
  const [route, go] = useRoute();
  const badges = useBadges();
  // `#/settings/mail` is the Settings page scrolled to a section.
  const current = NAV.find((n) => n.id === route.split('/')[0]) ?? NAV[0];
  const Page = current.page;

  // Alt+1…5 jumps between pages from anywhere.
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const n = Number(e.key);
      if (n >= 1 && n <= NAV.length) {
        e.preventDefault();
        go(NAV[n - 1].id);
      }
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, [go]);

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">✉</span> Mailroom
        </div>
        <ul>
          {NAV.map((n, i) => {
            const count = n.badge ? (badges[n.badge] ?? 0) : 0;
            return (
              <li key={n.id}>
                <a
                  href={`#/${n.id}`}
                  className={n.id === current.id ? 'active' : ''}
                  aria-current={n.id === current.id ? 'page' : undefined}
                  title={`${n.label} (Alt+${i + 1})`}
                >
                  <span className="nav-icon"><Icon name={n.id} /></span>
                  <span className="nav-label">{n.label}</span>
                  {count > 0 && (
                    <span className="badge" data-testid={`nav-badge-${n.id}`} aria-label={`${count} pending`}>
                      {count > 99 ? '99+' : count}
                    </span>
                  )}
                </a>
              </li>
            );
          })}
        </ul>
        <div className="sidebar-foot">
          <IndexStatus />
          <ConnectionIndicator />
        </div>
      </nav>
      <main className="content">
        <ConnectionBanner />
        <PageErrorBoundary key={current.id} page={current.label}>
          <Page />
        </PageErrorBoundary>
      </main>
    </div>
  );
}

function NoToken() {
  return (
    <div className="no-token card">
      <h1>Mailroom</h1>
      <p>This page needs your private link: Mailroom only answers pages opened with it.</p>
      <ul>
        <li>
          Run <code>mailroom open</code> (or <code>npm run open</code>): it opens Mailroom in your browser.
        </li>
        <li>
          Or use the link <code>mailroom start</code> printed (it ends in <code>?token=…</code>); <code>mailroom status</code> prints it again.
        </li>
      </ul>
    </div>
  );
}

export function App() {
  if (!bridge.token) return <NoToken />;
  const isCapture = window.location.hash.startsWith('#/capture');
  return (
    <HubProvider>
      <ToastProvider>
        <BadgeProvider>
          {isCapture ? (
            <PageErrorBoundary page="Capture">
              <CapturePage />
            </PageErrorBoundary>
          ) : (
            <Shell />
          )}
        </BadgeProvider>
      </ToastProvider>
    </HubProvider>
  );
}
