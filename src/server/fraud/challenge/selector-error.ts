import type { ProbeExpectation } from './types.js';

const METHODS = ['querySelector', 'querySelectorAll', 'matches', 'closest'] as const;

/** The SyntaxError of `element[method](selector)`, worded by each engine (Gecko prefixes `Element.method:`). */
export const selectorError: ProbeExpectation<{ method: string; selector: string }> = {
  id: 'selector-error',
  inputs: (draws) => ({
    method: draws.pick(METHODS),
    selector: draws.pick([
      () => `#${draws.int(0, 9)}${draws.ident(5)}`,
      () => `[${draws.ident(5)}=`,
      () => `${draws.ident(4)}..${draws.ident(3)}`,
    ])(),
  }),
  answers: ({ method, selector }) => ({
    Blink: [
      `SyntaxError: Failed to execute '${method}' on 'Element': '${selector}' is not a valid selector.`,
    ],
    Gecko: [`SyntaxError: Element.${method}: '${selector}' is not a valid selector`],
    WebKit: [`SyntaxError: '${selector}' is not a valid selector.`],
  }),
};
