import type { ProbeExpectation } from './types.js';

/** Range.setStart's IndexSizeError past a text node's end: only Blink names the offset and the length. */
export const rangeOffsetError: ProbeExpectation<{ text: string; offset: number }> = {
  id: 'range-offset-error',
  inputs: (draws) => ({ text: draws.ident(draws.int(3, 9)), offset: draws.int(10, 99) }),
  answers: ({ text, offset }) => ({
    Blink: [
      `IndexSizeError: Failed to execute 'setStart' on 'Range': The offset ${offset} is larger than the node's length (${text.length}).`,
    ],
    Gecko: ['IndexSizeError: Index or size is negative or greater than the allowed amount'],
    WebKit: ['IndexSizeError: The index is not in the allowed range.'],
  }),
};
