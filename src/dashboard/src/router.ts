import { useEffect, useState } from 'preact/hooks';

/** A small history router: the server answers every /dashboard path with the page. */
export const BASE = '/dashboard';

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  const url = to.startsWith(BASE) ? to : `${BASE}${to}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** The path below /dashboard and the query string; re-renders on navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const read = () => ({
    path: location.pathname.slice(BASE.length).replace(/\/+$/, '') || '/',
    search: new URLSearchParams(location.search),
  });
  const [current, setCurrent] = useState(read);
  useEffect(() => {
    const listener = () => setCurrent(read());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return current;
}

/** `match('/charges/:id', '/charges/42')` → `{ id: '42' }`, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const regex = new RegExp(
    `^${pattern.replace(/:(\w+)/g, (_all, name: string) => {
      names.push(name);
      return '([^/]+)';
    })}$`,
  );
  const found = regex.exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]));
}
