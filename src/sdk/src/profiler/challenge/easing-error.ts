import type { Probe } from './types.js';
import { thrown } from './types.js';

/** Element.animate's TypeError for a nonce-drawn easing that is no timing function. */
export const easingError: Probe<{ easing: string }> = {
  id: 'easing-error',
  inputs: (draws) => ({ easing: `${draws.ident(6)}-in` }),
  answer: ({ easing }, window) => {
    const element = window.document.createElement('div');
    return thrown(() => element.animate([{ opacity: 0 }], { duration: 1, easing }));
  },
};
