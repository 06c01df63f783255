import { describeEnvironment, disagree, type Environment } from './environment.js';
import type { Detector } from './types.js';

// A dedicated Worker answers in tens of milliseconds; one that has not answered by then is not waited for.
const DEADLINE_MS = 1_500;

/**
 * The page against a dedicated Worker it starts from a blob: URL. Kits patch the page's navigator, WebGL and
 * timezone; a worker has its own globals, which they rarely reach. A page whose CSP forbids blob: workers, or
 * a worker that fails or is late, leaves the detector out (the promise rejects): it is never a fired one.
 */
export const workerMismatch: Detector = {
  name: 'worker_mismatch',
  async detect(window) {
    const { URL, Blob, Worker } = window as Window & typeof globalThis;
    const source = `postMessage((${describeEnvironment})(self, true))`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    let worker: Worker | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const started = new Worker(url);
      worker = started;
      const answer = await new Promise<Environment>((resolve, reject) => {
        started.onmessage = (event: MessageEvent) => resolve(event.data as Environment);
        started.onerror = () => reject(new Error('worker failed'));
        timer = setTimeout(() => reject(new Error('worker timed out')), DEADLINE_MS);
      });
      // Only Firefox gives a worker the renderer (measured): the page reads its own only then.
      return disagree(describeEnvironment(window, answer.webgl != null), answer);
    } finally {
      clearTimeout(timer);
      worker?.terminate();
      URL.revokeObjectURL(url);
    }
  },
};
