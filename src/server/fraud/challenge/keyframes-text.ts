import type { ProbeExpectation } from './types.js';

/** @keyframes cssText: Blink and WebKit indent the keyframe after `{ `, Gecko starts it on a bare line. */
export const keyframesText: ProbeExpectation<{ name: string; stop: number; opacity: number }> = {
  id: 'keyframes-text',
  inputs: (draws) => ({
    name: `k${draws.ident(5)}`,
    // Quarters: WebKit prints a keyframe stored as a float with every digit (6.6 → 6.60000000000…).
    stop: draws.int(1, 399) / 4,
    opacity: draws.int(1, 99) / 100,
  }),
  answers: ({ name, stop, opacity }) => {
    const keyframe = `${stop}% { opacity: ${opacity}; }`;
    const indented = `@keyframes ${name} { \n  ${keyframe}\n}`;
    return { Blink: [indented], Gecko: [`@keyframes ${name} {\n${keyframe}\n}`], WebKit: [indented] };
  },
};
