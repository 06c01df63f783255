import type { Probe } from './types.js';
import { thrown } from './types.js';

const METHODS = ['querySelector', 'querySelectorAll', 'matches', 'closest'] as const;

/** The selector engine's SyntaxError for a nonce-drawn invalid selector: each engine words it its own way. */
export const selectorError: Probe<{ method: (typeof METHODS)[number]; selector: string }> = {
  id: 'selector-error',
  inputs: (draws) => ({
    method: draws.pick(METHODS),
    selector: draws.pick([
      () => `#${draws.int(0, 9)}${draws.ident(5)}`,
      () => `[${draws.ident(5)}=`,
      () => `${draws.ident(4)}..${draws.ident(3)}`,
    ])(),
  }),
  answer: ({ method, selector }, window) => {
    const element = window.document.createElement('div');
    return thrown(() => (element[method] as (selector: string) => unknown).call(element, selector));
  },
};
