import type { Probe } from './types.js';

const two = (value: number) => String(value).padStart(2, '0');

/**
 * A datetime-local input's value after setting a nonce-drawn time with milliseconds: Blink and WebKit normalise
 * it (".120" → ".12"), Gecko keeps what it was given.
 */
export const datetimeNormalisation: Probe<{ value: string }> = {
  id: 'datetime-normalisation',
  inputs: (draws) => {
    let centiseconds: number;
    // Whole tenths would print alike in every engine: draw another.
    do centiseconds = draws.int(1, 99);
    while (centiseconds % 10 === 0);
    const date = `${draws.int(2000, 2099)}-${two(draws.int(1, 12))}-${two(draws.int(1, 28))}`;
    const time = `${two(draws.int(0, 23))}:${two(draws.int(0, 59))}:${two(draws.int(1, 59))}`;
    return { value: `${date}T${time}.${two(centiseconds)}0` };
  },
  answer: ({ value }, window) => {
    const input = window.document.createElement('input');
    input.type = 'datetime-local';
    input.value = value;
    return input.value;
  },
};
