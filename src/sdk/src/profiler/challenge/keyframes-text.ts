import type { Probe } from './types.js';

/** The CSSOM text of a nonce-drawn @keyframes rule: Gecko lays it out otherwise than Blink and WebKit. */
export const keyframesText: Probe<{ name: string; stop: number; opacity: number }> = {
  id: 'keyframes-text',
  inputs: (draws) => ({
    // A leading k: no CSS-wide keyword (none, revert…) can come out.
    name: `k${draws.ident(5)}`,
    // Eighths: WebKit keeps a stop as a fraction and prints its float error (28.75 → 28.7499999…).
    stop: draws.int(1, 7) * 12.5,
    opacity: draws.int(1, 99) / 100,
  }),
  answer: ({ name, stop, opacity }, window) => {
    const sheet = new (window as unknown as typeof globalThis).CSSStyleSheet();
    sheet.insertRule(`@keyframes ${name} { ${stop}% { opacity: ${opacity} } }`);
    return sheet.cssRules[0]!.cssText;
  },
};
