import type { ProbeExpectation } from './types.js';

type Member = readonly [iface: string, name: string, kind: 'method' | 'get' | 'set'];

const MEMBERS: readonly Member[] = [
  ['Element', 'getAttribute', 'method'],
  ['Element', 'setAttribute', 'method'],
  ['Element', 'removeAttribute', 'method'],
  ['Element', 'hasAttribute', 'method'],
  ['Element', 'closest', 'method'],
  ['Element', 'matches', 'method'],
  ['Element', 'getBoundingClientRect', 'method'],
  ['Element', 'insertAdjacentHTML', 'method'],
  ['Node', 'appendChild', 'method'],
  ['Node', 'cloneNode', 'method'],
  ['Node', 'contains', 'method'],
  ['Document', 'createElement', 'method'],
  ['Document', 'createTextNode', 'method'],
  ['Document', 'getElementById', 'method'],
  ['HTMLElement', 'click', 'method'],
  ['Element', 'id', 'get'],
  ['Element', 'className', 'get'],
  ['Element', 'tagName', 'get'],
  ['Element', 'scrollTop', 'set'],
  ['Node', 'textContent', 'get'],
  ['Node', 'textContent', 'set'],
  ['Node', 'nodeName', 'get'],
  ['Document', 'title', 'set'],
  ['HTMLElement', 'hidden', 'get'],
];

/** Native function sources: Blink on one line with `get `/`set ` for accessors, Gecko and WebKit on three. */
export const nativeSource: ProbeExpectation<{ members: Member[] }> = {
  id: 'native-source',
  inputs: (draws) => ({ members: [draws.pick(MEMBERS), draws.pick(MEMBERS)] }),
  answers: ({ members }) => {
    const blink = members.map(([, name, kind]) =>
      kind === 'method'
        ? `function ${name}() { [native code] }`
        : `function ${kind} ${name}() { [native code] }`,
    );
    const multiline = members.map(([, name]) => `function ${name}() {\n    [native code]\n}`).join('|');
    return { Blink: [blink.join('|')], Gecko: [multiline], WebKit: [multiline] };
  },
};
