import type { Probe } from './types.js';
import { withElement } from './types.js';

/**
 * The computed transform of a nonce-drawn translate + scale: Blink and Gecko print 6 significant digits,
 * WebKit 6 decimals, so a 7-digit scale prints differently (1.234567: 1.23457 against 1.234567).
 */
export const transformMatrix: Probe<{ scale: number; x: number; y: number }> = {
  id: 'transform-matrix',
  inputs: (draws) => {
    let millionths: number;
    // A 7th digit of 0 leaves 6 digits (the same text everywhere); 4–6 sit near a rounding tie in float32.
    do millionths = draws.int(1_000_000, 3_999_999);
    while ([0, 4, 5, 6].includes(millionths % 10));
    // Quarter pixels are exact in float32 and float64 alike.
    return { scale: millionths / 1e6, x: draws.int(-4000, 4000) / 4, y: draws.int(-4000, 4000) / 4 };
  },
  answer: ({ scale, x, y }, window) =>
    withElement(window, (element) => {
      element.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
      return window.getComputedStyle(element).transform;
    }),
};
