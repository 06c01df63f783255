// Entry of the script-tag build's profiler chunk (dist/iife/chunks/profiler-[hash].js): FingerprintJS and BotD
// as a classic script, which ./default-script-tag.ts loads after the session exists.
import { collectProfile } from './fingerprint.js';
import { PROFILER_GLOBAL } from './script-tag-global.js';

(globalThis as Record<string, unknown>)[PROFILER_GLOBAL] = collectProfile;
