import type { Probe } from './types.js';

/**
 * How the engine serialises a nonce-drawn rgba() alpha: Blink and WebKit keep it as 8 bits, Gecko as a float,
 * so most alphas print differently (0.3456: 0.345 against 0.346).
 */
export const colourAlpha: Probe<{ rgb: [number, number, number]; alpha: number }> = {
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
  answer: ({ rgb, alpha }, window) => {
    const style = window.document.createElement('div').style;
    style.color = `rgba(${rgb.join(', ')}, ${alpha})`;
    return style.color;
  },
};
