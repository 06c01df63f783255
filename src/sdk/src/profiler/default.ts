import type { ProfilerFactory } from './types.js';

/** The default provider. The dynamic import keeps FingerprintJS and BotD in their own chunk, fetched only here. */
export const defaultProfiler: ProfilerFactory = async (context) => {
  const { collectProfile } = await import('./fingerprint.js');
  return collectProfile(context);
};
