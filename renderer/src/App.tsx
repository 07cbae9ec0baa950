import { useEffect, type ComponentType } from 'react';
import { HubProvider } from './hub';
import { BadgeProvider, useBadges } from './badges';
import { capCount } from '../../shared/badge';
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
import { VaultPage } from './pages/VaultPage';
import { HistoryPage } from './pages/HistoryPage';
import { CommandPalette } from './components/CommandPalette';
import { bridge } from './api';
import { Icon } from './components/Icon';
import { PageErrorBoundary } from './components/PageErrorBoundary';

interface NavItem {
  id: string;
  label: string;
  badge?: string;
  page: ComponentType;
  /** Alt+<key> jumps here (kept stable as pages are added). */
  key: number;
}

/** Non-empty: the first page is where an unknown route lands. */
const NAV: [NavItem, ...NavItem[]] = [
  { id: 'inbox', label: 'Inbox', badge: 'inbox', page: InboxPage, key: 1 },
  { id: 'vault', label: 'Vault', page: VaultPage, key: 6 },
  { id: 'sessions', label: 'Sessions', badge: 'sessions', page: SessionsPage, key: 2 },
  { id: 'routes', label: 'Routes', page: RoutesPage, key: 3 },
  { id: 'mail', label: 'Mail', badge: 'mail', page: MailPage, key: 4 },
  { id: 'history', label: 'History', page: HistoryPage, key: 7 },
  { id: 'settings', label: 'Settings', page: SettingsPage, key: 5 },
];

function Shell() {
  const [route, go] = useRoute();
  const badges = useBadges();
  // `#/settings/mail` is the Settings page scrolled to a section.
  const current = NAV.find((n) => n.id === route.split('/')[0]) ?? NAV[0];
  const Page = current.page;

  // Alt+1…7 jumps between pages from anywhere.
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const to = NAV.find((n) => String(n.key) === e.key);
      if (to) {
        e.preventDefault();
        go(to.id);
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
          {NAV.map((n) => {
            const count = n.badge ? (badges[n.badge] ?? 0) : 0;
            return (
              <li key={n.id}>
                <a
                  href={`#/${n.id}`}
                  className={n.id === current.id ? 'active' : ''}
                  aria-current={n.id === current.id ? 'page' : undefined}
                  title={`${n.label} (Alt+${n.key})`}
                >
                  <span className="nav-icon"><Icon name={n.id} /></span>
                  <span className="nav-label">{n.label}</span>
                  {count > 0 && (
                    <span className="badge" data-testid={`nav-badge-${n.id}`} aria-label={`${count} pending`}>
                      {capCount(count)}
                    </span>
                  )}
                </a>
              </li>
            );
          })}
        </ul>
        <div className="sidebar-foot">
          <IndexStatus />
          <p className="sidebar-hint">
            <kbd>Ctrl</kbd>+<kbd>K</kbd> commands
          </p>
          <ConnectionIndicator />
        </div>
      </nav>
      <main className="content">
        <ConnectionBanner />
        <PageErrorBoundary key={current.id} page={current.label}>
          <Page />
        </PageErrorBoundary>
      </main>
      <CommandPalette />
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
