import type { Probe } from './types.js';
import { thrown } from './types.js';

/** setAttribute's InvalidCharacterError for a nonce-drawn name holding a space (invalid in every engine). */
export const attributeNameError: Probe<{ name: string }> = {
  id: 'attribute-name-error',
  inputs: (draws) => ({ name: `${draws.ident(4)} ${draws.ident(3)}` }),
  answer: ({ name }, window) => {
    const element = window.document.createElement('div');
    return thrown(() => element.setAttribute(name, ''));
  },
};
