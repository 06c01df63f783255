import type { ProbeExpectation } from './types.js';

const rounded = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * CSS Color's alpha serialisation: two decimals when they round-trip through 8 bits, else three. Blink and WebKit
 * round the 8-bit alpha they store; Gecko the alpha it was given.
 */
function alphaText(alpha: number, stored: number): string {
  const eightBit = Math.round(alpha * 255);
  const twoDecimals = rounded(stored, 2);
  return String(Math.round(twoDecimals * 255) === eightBit ? twoDecimals : rounded(stored, 3));
}

export const colourAlpha: ProbeExpectation<{ rgb: [number, number, number]; alpha: number }> = {
  id: 'colour-alpha',
  inputs: (draws) => {
    let tenThousandths: number;
    // Alphas on a rounding tie (of 3 or 2 decimals, or of ×255) would print either way; those that print two
    // decimals, or whose 8-bit value prints the same three, print alike in every engine: draw another.
    const printsAlike = (alpha: number) => {
      const eightBit = Math.round(alpha * 255);
      const twoDecimals = (value: number) => Math.round((Math.round(value * 100) / 100) * 255) === eightBit;
      return (
        Math.round(alpha * 1000) === Math.round((eightBit * 1000) / 255) ||
        twoDecimals(alpha) ||
        twoDecimals(eightBit / 255)
      );
    };
    do tenThousandths = draws.int(1000, 9000);
    while (
      tenThousandths % 10 === 5 ||
      Math.abs(((tenThousandths * 0.0255) % 1) - 0.5) < 0.02 ||
      printsAlike(tenThousandths / 10000)
    );
    return { rgb: [draws.int(0, 255), draws.int(0, 255), draws.int(0, 255)], alpha: tenThousandths / 10000 };
  },
  answers: ({ rgb, alpha }) => {
    const text = (stored: number) => `rgba(${rgb.join(', ')}, ${alphaText(alpha, stored)})`;
    const eightBit = text(Math.round(alpha * 255) / 255);
    return { Blink: [eightBit], Gecko: [text(alpha)], WebKit: [eightBit] };
  },
};
