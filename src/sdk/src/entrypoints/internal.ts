// Entry of `@vigia/sdk/internal` (dist/internal/index.js): the wire contract between the SDK and the service,
// for the service alone. Not part of the semver'd API of ../index.ts: it changes with the service, in one commit.
export { SIGNALS_MAX_BYTES, type SignalsBody, type TokenFraud } from '../fraud-analysis.js';
export { DETECTOR_NAMES, type DetectorName } from '../profiler/detectors/names.js';
