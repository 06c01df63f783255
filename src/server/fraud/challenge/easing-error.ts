import type { ProbeExpectation } from './types.js';

/** Element.animate's TypeError for an unknown easing: WebKit says only "Type error". */
export const easingError: ProbeExpectation<{ easing: string }> = {
  id: 'easing-error',
  inputs: (draws) => ({ easing: `${draws.ident(6)}-in` }),
  answers: ({ easing }) => ({
    Blink: [
      `TypeError: Failed to execute 'animate' on 'Element': '${easing}' is not a valid value for easing`,
    ],
    Gecko: [`TypeError: Element.animate: Invalid easing '${easing}'.`],
    WebKit: ['TypeError: Type error'],
  }),
};
