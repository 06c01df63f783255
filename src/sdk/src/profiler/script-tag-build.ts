/**
 * The profiler chunk of the script-tag build: its path relative to `sdk.js` and its Subresource Integrity
 * hash. Empty in the source: rollup.config.mjs builds the chunk first and replaces this module with the real
 * values when it bundles `sdk.js`.
 */
export const PROFILER_CHUNK: { file: string; integrity: string } = { file: '', integrity: '' };
