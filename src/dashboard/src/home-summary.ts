/**
 * What GET /dashboard/api/home answers: the server builds it (src/server/dashboard/home.ts), the Home page draws
 * it (pages/home.tsx). One definition for both bundles; types only, so nothing of it reaches either at run time.
 */

/** A day's charges, by fraud-analysis status; amounts in centavos. */
export interface HomeDay {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  charges: number;
  amount: number;
  approved: number;
  review: number;
  declined: number;
  not_analyzed: number;
}

/** What became of the period's fraud sessions. */
export interface SessionCoverage {
  created: number;
  /** The profiler reported a visitor. */
  profiled: number;
  /** Signals came with the profiler's error instead of its report (as when an ad blocker stops it). */
  blocked_profiler: number;
  expired_unused: number;
  consumed: number;
  /** Charges refused because they named a session another charge had used (by day of refusal). */
  reuse_refused: number;
}

export interface WebhookHealth {
  attempts: number;
  succeeded: number;
  success_rate: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
}

export interface HomeSummary {
  /** Inclusive `YYYY-MM-DD` days, UTC. */
  period: { from: string; to: string };
  /** Every day of the period, quiet days as zeros. */
  days: HomeDay[];
  totals: Omit<HomeDay, 'date'>;
  /** The eight most frequent risk reasons of the period. */
  top_reasons: { code: string; count: number }[];
  sessions: SessionCoverage;
  webhooks: WebhookHealth;
}
