import type { Probe } from './types.js';

/**
 * The CSS parser's simplification of a nonce-drawn calc(): terms summed per unit and sorted. Every engine
 * answers alike, so it does not tell engines apart; it proves a CSS engine ran (a script has none).
 */
export const calcSimplification: Probe<{ px: [number, number]; em: [number, number]; percent: number }> = {
  id: 'calc-simplification',
  inputs: (draws) => {
    const px: [number, number] = [draws.int(1, 60), draws.int(1, 60)];
    // A zero px sum would drop its term in some serialisations: keep it out.
    if (px[0] === px[1]) px[1] += 1;
    return { px, em: [draws.int(1, 20) / 2, draws.int(1, 20) / 2], percent: draws.int(1, 99) };
  },
  answer: ({ px, em, percent }, window) => {
    const style = window.document.createElement('div').style;
    style.width = `calc(${px[0]}px + ${em[0]}em + ${percent}% - ${px[1]}px + ${em[1]}em)`;
    return style.width;
  },
};
