import { useEffect, useState } from 'react';

/** Hash routes (`#/inbox`), so the same build works from 127.0.0.1 and inside Electron. */
export function useRoute(): [string, (to: string) => void] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('?')[0] || 'inbox';
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return [route, (to: string) => (window.location.hash = `#/${to}`)];
}
