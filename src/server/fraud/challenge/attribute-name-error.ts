import type { ProbeExpectation } from './types.js';

/** setAttribute's InvalidCharacterError: Gecko does not repeat the name, Blink and WebKit do, each its way. */
export const attributeNameError: ProbeExpectation<{ name: string }> = {
  id: 'attribute-name-error',
  inputs: (draws) => ({ name: `${draws.ident(4)} ${draws.ident(3)}` }),
  answers: ({ name }) => ({
    Blink: [
      `InvalidCharacterError: Failed to execute 'setAttribute' on 'Element': '${name}' is not a valid attribute name.`,
    ],
    Gecko: ['InvalidCharacterError: Element.setAttribute: Invalid attribute name'],
    WebKit: [`InvalidCharacterError: Invalid qualified name: '${name}'`],
  }),
};
