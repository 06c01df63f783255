export { type AppOptions, buildApp, type VigiaApp } from './app.js';
export { type Clock, systemClock } from './clock.js';
export { type Config, loadConfig } from './config.js';
export { verifySignature, verifyStandardSignature } from './webhooks/signature.js';
