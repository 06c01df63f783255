import { riskRule } from '../types.js';

export const signalsTooFast = riskRule({
  code: 'SIGNALS_TOO_FAST',
  description:
    'The profiler report arrived faster than a profiler can run: its duration_ms (or the time from session ' +
    "creation to the report, on the service's clock) is under 20 ms, or the report claims more time than " +
    "passed on the service's clock (by more than 100 ms): a report computed before the session existed.",
  applies: ({ session }, policy) => {
    const signals = session.signals;
    if (!signals) return false;
    const { minProfileMs, clockToleranceMs } = policy.timing;
    const elapsed = Date.parse(signals.receivedAt) - Date.parse(session.createdAt);
    // The lookup and the profiler both start after the session answer and end before the report is sent.
    const claimed = Math.max(signals.ipLookup.durationMs, signals.profiler?.durationMs ?? 0);
    if (elapsed + clockToleranceMs < claimed) return true;
    if (!signals.profiler) return false;
    return signals.profiler.durationMs < minProfileMs || elapsed < minProfileMs;
  },
});
