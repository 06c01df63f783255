import type { Probe } from './types.js';

/** The CSSOM text of a nonce-drawn @keyframes rule: Gecko lays it out otherwise than Blink and WebKit. */
export const keyframesText: Probe<{ name: string; stop: number; opacity: number }> = {
  id: 'keyframes-text',
  inputs: (draws) => ({
    // A leading k: no CSS-wide keyword (none, revert…) can come out.
    name: `k${draws.ident(5)}`,
    // Quarters: WebKit prints a keyframe stored as a float with every digit (6.6 → 6.60000000000…).
    stop: draws.int(1, 399) / 4,
    opacity: draws.int(1, 99) / 100,
  }),
  answer: ({ name, stop, opacity }, window) => {
    const sheet = new window.CSSStyleSheet();
    sheet.insertRule(`@keyframes ${name} { ${stop}% { opacity: ${opacity} } }`);
    return sheet.cssRules[0]!.cssText;
  },
};
