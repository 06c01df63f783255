import { riskRule } from '../types.js';

const isText = (value: unknown) => typeof value === 'string';
const isCount = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isList = (value: unknown) => Array.isArray(value);

/**
 * What every run of a real profiler reads, in every engine, whatever the page: navigator and screen
 * attributes that cannot fail. A report without them (or with them in another shape) was not made by one.
 * Another provider (the SDK's `profiler` option) must report these keys too.
 */
export const BASELINE_COMPONENTS: Readonly<Record<string, (value: unknown) => boolean>> = {
  platform: isText,
  vendor: isText,
  timezone: isText,
  languages: isList,
  hardwareConcurrency: isCount,
  colorDepth: isCount,
  screenResolution: (value) => isList(value) && (value as unknown[]).length === 2,
  touchSupport: (value) => typeof value === 'object' && value !== null && !isList(value),
};

export const profileUncorroborated = riskRule({
  code: 'PROFILE_UNCORROBORATED',
  description:
    'The profiler report lacks components every real profiler run produces (platform, vendor, timezone, ' +
    'languages, screen, cores, touch support), or gives them in another shape: a report made up by a client ' +
    'that never ran the profiler.',
  applies: ({ session }) => {
    const components = session.signals?.profiler?.components;
    if (!components) return false;
    return Object.entries(BASELINE_COMPONENTS).some(([key, valid]) => !valid(components[key]));
  },
});
