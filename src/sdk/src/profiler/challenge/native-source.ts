import type { Probe } from './types.js';

type Member = readonly [iface: string, name: string, kind: 'method' | 'get' | 'set'];

/** DOM members every engine defines on the same prototype. */
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

/**
 * The source text of two native DOM functions the nonce picks: Blink writes getters as `get name` on one line,
 * Gecko and WebKit write the bare name over three lines.
 */
export const nativeSource: Probe<{ members: Member[] }> = {
  id: 'native-source',
  inputs: (draws) => ({ members: [draws.pick(MEMBERS), draws.pick(MEMBERS)] }),
  answer: ({ members }, window) =>
    members
      .map(([iface, name, kind]) => {
        const prototype = (window as unknown as Record<string, { prototype: object }>)[iface]!.prototype;
        const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
        const native = kind === 'method' ? descriptor.value : descriptor[kind];
        return Function.prototype.toString.call(native);
      })
      .join('|'),
};
