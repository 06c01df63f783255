import { useEffect, useState } from 'preact/hooks';
import { type Locale, locale } from './index.js';

/** A page area's catalogue per language, loaded with its page (docs/decisions/dashboard-area-catalogues.md). */
export type AreaLoaders<M> = Record<Locale, () => Promise<M>>;

const loaded = new WeakMap<AreaLoaders<unknown>, Partial<Record<Locale, unknown>>>();

/**
 * The area's words in the current language: at once when already loaded, else null until they are (and again
 * after a change of language).
 */
export function useAreaWords<M>(loaders: AreaLoaders<M>): M | null {
  const cache = (loaded.get(loaders) ?? {}) as Partial<Record<Locale, M>>;
  loaded.set(loaders, cache);
  const [, setShown] = useState<Locale | null>(null);
  const wanted = locale;
  useEffect(() => {
    if (cache[wanted]) return;
    let current = true;
    loaders[wanted]().then((messages) => {
      cache[wanted] = messages;
      if (current) setShown(wanted);
    });
    return () => {
      current = false;
    };
  }, [wanted]);
  return cache[wanted] ?? null;
}
