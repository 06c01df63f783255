/**
 * The window property through which the script-tag build's profiler chunk (a classic script, which cannot
 * export) hands its provider to the SDK that loaded it. The SDK takes it and deletes it at once.
 */
export const PROFILER_GLOBAL = '__vigiaProfiler';
