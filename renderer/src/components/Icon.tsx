/** A few line icons (emoji fonts are not everywhere, e.g. minimal Linux installs). */
const PATHS: Record<string, string> = {
  inbox: 'M3 13h5l1.5 3h5L16 13h5M5 5h14l2 8v6H3v-6z',
  sessions: 'M4 5h16v10H8l-4 4z',
  routes: 'M4 7h10l-3-3M20 17H10l3 3M14 7l6 0M4 17h2',
  mail: 'M3 6h18v12H3zM3 6l9 7 9-7',
  vault: 'M4 4h6l2 2h8v14H4zM4 9h16',
  history: 'M12 7v5l3 2M3.5 12a8.5 8.5 0 1 0 2.5-6M3 4v4h4',
  settings: 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM4 12h2M18 12h2M12 4v2M12 18v2M6.3 6.3l1.4 1.4M16.3 16.3l1.4 1.4M6.3 17.7l1.4-1.4M16.3 7.7l1.4-1.4',
};

export function Icon({ name, size = 18 }: { name: string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={PATHS[name] ?? ''} />
    </svg>
  );
}
