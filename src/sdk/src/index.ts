// The public, semver'd API of @vigia/sdk. The bundles' entry files are in ./entrypoints/; the wire contract the
// service reads (signals body, detector names) is `@vigia/sdk/internal` (./entrypoints/internal.ts), not here.
export type { BrowserType } from './browser-type.js';
export { browserType } from './browser-type.js';
export * from './cards/index.js';
export { SdkError, type SdkErrorCode, type SdkErrorDetail } from './errors.js';
export type { FraudAnalysis, FraudSetupResult } from './fraud-analysis.js';
export type { IpLookupResult } from './ip-lookup.js';
export type { ProfilerContext, ProfilerFactory, ProfilerReport } from './profiler/index.js';
export { type Cards, Sdk, type SdkConfig, type SdkOptions } from './sdk.js';
export type { CardToken, TokenizeOptions } from './tokens.js';
