import type { ProbeExpectation } from './types.js';

/** calc() summed per unit, sorted (percentage, then units in ASCII order): the same in every engine. */
export const calcSimplification: ProbeExpectation<{
  px: [number, number];
  em: [number, number];
  percent: number;
}> = {
  id: 'calc-simplification',
  inputs: (draws) => {
    const px: [number, number] = [draws.int(1, 60), draws.int(1, 60)];
    if (px[0] === px[1]) px[1] += 1;
    return { px, em: [draws.int(1, 20) / 2, draws.int(1, 20) / 2], percent: draws.int(1, 99) };
  },
  answers: ({ px, em, percent }) => {
    const pixels = px[0] - px[1];
    const text = `calc(${percent}% + ${em[0] + em[1]}em ${pixels < 0 ? '-' : '+'} ${Math.abs(pixels)}px)`;
    return { Blink: [text], Gecko: [text], WebKit: [text] };
  },
};
