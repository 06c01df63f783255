import { abortable, childController } from '../abort.js';
import type { ProfilerContext, ProfilerFactory, ProfilerOutcome, Profiling } from './types.js';

export type { BehaviorReport, TimingStats } from './behavior/types.js';
// The script-tag build swaps ./default.js for ./default-script-tag.js (rollup.config.mjs): same provider,
// loaded as a classic script instead of an ES module chunk.
export { defaultProfiler } from './default.js';
export type {
  ProfilerContext,
  ProfilerFactory,
  ProfilerOutcome,
  ProfilerReport,
  Profiling,
} from './types.js';

const STOPPED = 'stopped';
const TIMEOUT = 'timeout';

/**
 * Starts a provider for a session (with the session answer's challenge) under a deadline; aborting `signal` stops
 * it too. See `Profiling`.
 */
export function startProfiler(
  factory: ProfilerFactory,
  context: Omit<ProfilerContext, 'signal'>,
  timeoutMs: number,
  signal?: AbortSignal,
): Profiling {
  const controller = childController(signal);
  const timer = setTimeout(() => controller.abort(TIMEOUT), timeoutMs);
  let work: Promise<ProfilerOutcome>;
  try {
    work = factory({ ...context, signal: controller.signal }).then((report) => ({ report }));
  } catch (error) {
    work = Promise.reject(error);
  }
  const done = abortable(work, controller.signal)
    .catch((error: unknown): ProfilerOutcome => {
      const reason: unknown = controller.signal.reason;
      return {
        error: controller.signal.aborted
          ? typeof reason === 'string'
            ? reason
            : STOPPED
          : String(error).slice(0, 200) || 'error',
      };
    })
    .finally(() => clearTimeout(timer));
  return { stop: () => controller.abort(STOPPED), done };
}
