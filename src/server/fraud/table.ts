/**
 * One fraud session: what the browser declared when the SDK created it, what the service itself saw, and the
 * signals the profiler reported later. Consumed (single use) by exactly one charge, within 30 minutes.
 */
export interface FraudSessionsTable {
  id: string;
  merchant_id: string;
  /** The five fields of the published interface, as the browser sent them. */
  declared_ip_address: string | null;
  declared_type: string;
  declared_host_name: string;
  declared_cookies_accepted: number;
  declared_user_agent: string;
  /** What the service saw on the creating request: source IP and the `User-Agent` and `Origin` headers. */
  observed_ip_address: string;
  observed_user_agent: string | null;
  observed_origin: string | null;
  /** ua-parser-js's browser type of the declared user agent and of the header. */
  parsed_type: string;
  observed_type: string | null;
  /** JSON `{ declared, header }` of ua-parser-js readings (browser, version, os, device). */
  user_agent_readings: string;
  /** From the profiler's report: the device's visitor id (velocity rules read it) and the bot verdict. */
  visitor_id: string | null;
  automation: number | null;
  /** JSON of the whole signals report (IP lookup, profiler report or error). */
  signals: string | null;
  signals_at: string | null;
  /** SHA-256 (hex) of the session's signals token: only the browser that created the session can report. */
  signals_token_hash: string | null;
  /** What the service saw on the signals request, held against the creating request's. */
  signals_ip_address: string | null;
  signals_user_agent: string | null;
  /** The session challenge: its nonce and the JSON array of probe ids; null for sessions made before it. */
  challenge_nonce: string | null;
  challenge_probes: string | null;
  /** JSON `RequestHeaders` (fraud/request-headers.ts) of the creating and of the signals request; null when not seen. */
  request_headers: string | null;
  signals_request_headers: string | null;
  /** JSON of the last behaviour report (aggregates of how the checkout was filled) and when it came. */
  behavior: string | null;
  behavior_at: string | null;
  charge_id: string | null;
  consumed_at: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/**
 * Refused second uses of a fraud session (a charge naming a session another charge already used), counted per
 * merchant and UTC day of the refusal. One row per merchant and day whatever the number of refusals, written
 * after the refused charge rolled back.
 */
export interface FraudSessionReuseRefusalsTable {
  merchant_id: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  refusals: number;
  last_refused_at: string;
}
