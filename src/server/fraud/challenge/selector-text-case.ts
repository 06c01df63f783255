import type { ProbeExpectation } from './types.js';

interface Inputs {
  types: [string, string, string];
  attribute: string;
  value: string;
  className: string;
}

/** selectorText: Blink lowercases type selectors and attribute names of an HTML page, Gecko and WebKit do not. */
export const selectorTextCase: ProbeExpectation<Inputs> = {
  id: 'selector-text-case',
  inputs: (draws) => ({
    types: [draws.ident(4), draws.ident(3), draws.ident(5)],
    attribute: draws.ident(4),
    value: draws.ident(3),
    className: draws.ident(4),
  }),
  answers: ({ types, attribute, value, className }) => {
    const text = (name: (raw: string) => string) =>
      `${name(types[0])} > ${name(types[1])}[${name(attribute)}="${value}"] ~ ${name(types[2])}:not(.${className})`;
    const asGiven = text((raw) => raw);
    return { Blink: [text((raw) => raw.toLowerCase())], Gecko: [asGiven], WebKit: [asGiven] };
  },
};
