import type { ProbeExpectation } from './types.js';

const two = (value: number) => String(value).padStart(2, '0');

/**
 * A datetime-local value with milliseconds: Blink and WebKit normalise it as HTML says (".120" → ".12"); Gecko
 * keeps it as given. Gecko is also accepted normalised, the day it follows the standard.
 */
export const datetimeNormalisation: ProbeExpectation<{ value: string }> = {
  id: 'datetime-normalisation',
  inputs: (draws) => {
    let centiseconds: number;
    do centiseconds = draws.int(1, 99);
    while (centiseconds % 10 === 0);
    const date = `${draws.int(2000, 2099)}-${two(draws.int(1, 12))}-${two(draws.int(1, 28))}`;
    const time = `${two(draws.int(0, 23))}:${two(draws.int(0, 59))}:${two(draws.int(1, 59))}`;
    return { value: `${date}T${time}.${two(centiseconds)}0` };
  },
  answers: ({ value }) => {
    const normalised = value.slice(0, -1);
    return { Blink: [normalised], Gecko: [value, normalised], WebKit: [normalised] };
  },
};
