import { useState } from 'react';
import { AdaptersTab } from './routes/AdaptersTab';
import { RoutesTab } from './routes/RoutesTab';
import { useRouterData } from './routes/useRouter';
import './routes/routes.css';

type Tab = 'routes' | 'adapters';
const TAB_KEY = 'mailroom.routes.tab';

/** Routes: where inbox items can go besides the vault — MCP adapters, route rules, and what was sent. */
export function RoutesPage() {
  const { adapters, routes, error, reload } = useRouterData();
  const [tab, setTab] = useState<Tab>(() => (sessionStorage.getItem(TAB_KEY) as Tab | null) ?? 'routes');
  const choose = (t: Tab) => {
    setTab(t);
    sessionStorage.setItem(TAB_KEY, t);
  };
  const failed = adapters?.filter((a) => a.status.state === 'failed').length ?? 0;

  return (
    <section className="page routes-page">
      <header className="page-header">
        <h1>Routes</h1>
      </header>
      <div className="tabs" role="tablist" aria-label="Routes sections">
        <button role="tab" aria-selected={tab === 'routes'} className={`tab ${tab === 'routes' ? 'active' : ''}`} onClick={() => choose('routes')}>
          Routes {routes && <span className="tab-count">{routes.length}</span>}
        </button>
        <button role="tab" aria-selected={tab === 'adapters'} className={`tab ${tab === 'adapters' ? 'active' : ''}`} onClick={() => choose('adapters')}>
          Adapters {adapters && <span className="tab-count">{adapters.length}</span>}
          {failed > 0 && (
            <span className="badge" aria-label={`${failed} failed`}>
              {failed}
            </span>
          )}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          Could not load the router: {error}
        </p>
      )}
      {adapters && routes && (tab === 'routes' ? <RoutesTab routes={routes} adapters={adapters} reload={reload} /> : <AdaptersTab adapters={adapters} reload={reload} />)}
    </section>
  );
}
