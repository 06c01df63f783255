import type { ProbeExpectation } from './types.js';

/** @keyframes cssText: Blink and WebKit indent the keyframe after `{ `, Gecko starts it on a bare line. */
export const keyframesText: ProbeExpectation<{ name: string; stop: number; opacity: number }> = {
  id: 'keyframes-text',
  inputs: (draws) => ({
    name: `k${draws.ident(5)}`,
    // Eighths: WebKit keeps a stop as a fraction and prints its float error (28.75 → 28.7499999…).
    stop: draws.int(1, 7) * 12.5,
    opacity: draws.int(1, 99) / 100,
  }),
  answers: ({ name, stop, opacity }) => {
    const keyframe = `${stop}% { opacity: ${opacity}; }`;
    const indented = `@keyframes ${name} { \n  ${keyframe}\n}`;
    return { Blink: [indented], Gecko: [`@keyframes ${name} {\n${keyframe}\n}`], WebKit: [indented] };
  },
};
