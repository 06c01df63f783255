import type { ProfilerFactory } from './types.js';

/**
 * The ES module build's default provider: the dynamic import keeps FingerprintJS and BotD in their own chunk,
 * fetched only here.
 */
export const moduleProfiler: ProfilerFactory = (context) =>
  import('./fingerprint.js').then(({ collectProfile }) => collectProfile(context));
