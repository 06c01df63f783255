/**
 * Settles with `promise`, or rejects with `signal.reason` as soon as the signal aborts, so that a
 * `fetch` implementation that ignores its signal still cannot hold the SDK past a deadline.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    const settled = () => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject);
    promise.then(settled, settled);
  });
}

/** A controller that aborts when `parent` does (AbortSignal.any is too recent for the browsers we support). */
export function childController(parent?: AbortSignal): AbortController {
  const controller = new AbortController();
  if (parent) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
  }
  return controller;
}
