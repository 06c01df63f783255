import type { ProbeExpectation } from './types.js';

/** The computed matrix(): Blink and Gecko print 6 significant digits, WebKit 6 decimals. */
export const transformMatrix: ProbeExpectation<{ scale: number; x: number; y: number }> = {
  id: 'transform-matrix',
  inputs: (draws) => {
    let millionths: number;
    do millionths = draws.int(1_000_000, 3_999_999);
    while ([0, 4, 5, 6].includes(millionths % 10));
    return { scale: millionths / 1e6, x: draws.int(-4000, 4000) / 4, y: draws.int(-4000, 4000) / 4 };
  },
  answers: ({ scale, x, y }) => {
    const matrix = (s: number) => `matrix(${s}, 0, 0, ${s}, ${x}, ${y})`;
    const sixDigits = matrix(Number(scale.toPrecision(6)));
    return { Blink: [sixDigits], Gecko: [sixDigits], WebKit: [matrix(scale)] };
  },
};
