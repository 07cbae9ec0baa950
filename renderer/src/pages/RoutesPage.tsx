import { EmptyState } from '../components/EmptyState';

export function RoutesPage() {
  return (
    <section className="page">
      <header className="page-header"><h1>Routes</h1></header>
      <EmptyState title="Nothing here yet" body="This page fills in as Mailroom learns more." />
    </section>
  );
}
