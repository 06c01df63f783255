import { abortable, childController } from '../abort.js';
import type { ProfilerContext, ProfilerFactory, ProfilerOutcome, Profiling } from './types.js';

export type { BehaviorReport, TimingStats } from './behavior/types.js';
export type {
  ProfilerContext,
  ProfilerFactory,
  ProfilerOutcome,
  ProfilerReport,
  Profiling,
} from './types.js';

/**
 * The provider behind `profiler: true` (the default option). Each bundle's entrypoint (src/sdk/src/entrypoints/)
 * names its own: the ES module build loads FingerprintJS and BotD as a module chunk, the script-tag build as a
 * classic script. Unset, as when a test imports the sources directly, the SDK profiles nothing by default.
 */
export let defaultProfiler: ProfilerFactory | undefined;

export function useDefaultProfiler(factory: ProfilerFactory): void {
  defaultProfiler = factory;
}

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
