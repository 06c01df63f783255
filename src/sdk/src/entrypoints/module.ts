// Entry of the ES module build (dist/esm/index.js, the package's `.` export): the public API of ../index.ts,
// profiling by default with FingerprintJS and BotD from a chunk loaded by dynamic import after setup().

import { useDefaultProfiler } from '../profiler/index.js';
import { moduleProfiler } from '../profiler/load-as-module.js';

useDefaultProfiler(moduleProfiler);

export * from '../index.js';
