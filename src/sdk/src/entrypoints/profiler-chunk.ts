// Entry of the script-tag build's profiler chunk (dist/iife/chunks/profiler-[hash].js): FingerprintJS and BotD
// as a classic script, which ../profiler/load-as-script.ts adds after the session exists.
import { collectProfile } from '../profiler/fingerprint.js';
import { PROFILER_GLOBAL } from '../profiler/script-tag-global.js';

(globalThis as Record<string, unknown>)[PROFILER_GLOBAL] = collectProfile;
