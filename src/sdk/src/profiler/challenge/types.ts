import type { Draws } from './draws.js';

/**
 * One engine probe of the session challenge: it draws its input from the nonce (`inputs`, drawn the same way by
 * the service) and answers with a text the page's engine produces from it (an error message, a CSS
 * serialisation). The service knows what each engine family answers (src/server/fraud/challenge/).
 */
export interface Probe<Inputs = unknown> {
  /** kebab-case; the session answer names the probes to run by it. */
  id: string;
  inputs(draws: Draws): Inputs;
  /** Synchronous and fast; may throw only where the engine lacks the API (the answer is then a marker). */
  answer(inputs: Inputs, window: Window): string;
}

/**
 * The error a DOM call throws, as `name: message`: the engine writes that text, not the page. Only the call that
 * must throw goes in: a page without the DOM it needs fails the probe (the marker answer) instead.
 */
export function thrown(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return `${String(name)}: ${String(message)}`;
  }
  return 'no error';
}

/** Runs `read` on a fresh element attached to the page (computed styles need it), then removes it. */
export function withElement<T>(window: Window, read: (element: HTMLElement) => T): T {
  const element = window.document.createElement('div');
  window.document.documentElement.append(element);
  try {
    return read(element);
  } finally {
    element.remove();
  }
}
