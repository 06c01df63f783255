import type { Probe } from './types.js';
import { thrown } from './types.js';

/** Range.setStart's IndexSizeError for an offset past a nonce-drawn text node's end. */
export const rangeOffsetError: Probe<{ text: string; offset: number }> = {
  id: 'range-offset-error',
  inputs: (draws) => ({ text: draws.ident(draws.int(3, 9)), offset: draws.int(10, 99) }),
  answer: ({ text, offset }, window) => {
    const range = window.document.createRange();
    const node = window.document.createTextNode(text);
    return thrown(() => range.setStart(node, offset));
  },
};
