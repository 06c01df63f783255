import type { Probe } from './types.js';

/**
 * A CSS rule's selectorText for nonce-drawn mixed-case names: Blink lowercases type selectors and attribute
 * names in an HTML page, Gecko and WebKit keep the case they were given.
 */
export const selectorTextCase: Probe<{
  types: [string, string, string];
  attribute: string;
  value: string;
  className: string;
}> = {
  id: 'selector-text-case',
  inputs: (draws) => ({
    types: [draws.ident(4), draws.ident(3), draws.ident(5)],
    attribute: draws.ident(4),
    value: draws.ident(3),
    className: draws.ident(4),
  }),
  answer: ({ types, attribute, value, className }, window) => {
    const sheet = new (window as unknown as typeof globalThis).CSSStyleSheet();
    sheet.insertRule(
      `${types[0]} > ${types[1]}[${attribute}="${value}"] ~ ${types[2]}:NOT(.${className}) {}`,
    );
    return (sheet.cssRules[0] as CSSStyleRule).selectorText;
  },
};
