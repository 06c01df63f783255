import type { ReasonCode } from './rules/index.js';

/**
 * Every number of the risk engine, in one place. A charge's score is the sum of the weights of the reasons
 * found, capped at 100; `score < review` is approved, `review ≤ score < decline` review, `score ≥ decline`
 * declined (the charge fails with `fraud_declined` and the acquirer is not called).
 */
export interface RiskPolicy {
  weights: Readonly<Record<ReasonCode, number>>;
  thresholds: { review: number; decline: number };
  velocity: {
    /** DEVICE_VELOCITY when the device (profiler visitor id) already has this many charges in the window. */
    device: { maxCharges: number; windowMinutes: number };
    /** CARD_VELOCITY when the card (number hash) already has this many charges in the window. */
    card: { maxCharges: number; windowMinutes: number };
  };
  /**
   * VISITOR_MANY_CARDS / _BUYERS / _IPS when one visitor id was seen with more than this many distinct cards,
   * buyers or source IPs (this charge's included) within the window; VISITOR_REUSED looks in the same window.
   */
  linking: { maxCards: number; maxBuyers: number; maxIps: number; windowMinutes: number };
  /**
   * The platform-wide device graph (every merchant): VISITOR_ID_FORGED looks back `windowMinutes`;
   * DEVICE_SHARED_ACROSS_MERCHANTS `sharedMinutes`; DEVICE_CARDS_ACROSS_MERCHANTS when the device had more than
   * `maxCards` distinct cards at `minMerchants` merchants or more within `velocityMinutes` (this charge's included).
   */
  graph: {
    windowMinutes: number;
    sharedMinutes: number;
    velocityMinutes: number;
    maxCards: number;
    minMerchants: number;
  };
  /**
   * SIGNALS_TOO_FAST: no profiler that reports the baseline components runs in under `minProfileMs` (by its
   * own clock or by the service's, from session creation to report), and the report cannot claim more time
   * than passed on the service's clock, give or take `clockToleranceMs` (the browser's clock may step).
   */
  timing: { minProfileMs: number; clockToleranceMs: number };
  /**
   * The behaviour rules' limits, from human physiology rather than from one lab row: people's inter-key intervals
   * run in the tens to hundreds of ms with a wide spread (even a 150 wpm typist's median is ~80 ms), and a key
   * is held 50–150 ms. `minKeystrokes` keystrokes are needed before a rhythm is judged.
   */
  behavior: {
    minKeystrokes: number;
    minIntervalMs: number;
    constantMadMs: number;
    constantSdMs: number;
    minDwellMs: number;
    minMsPerKey: number;
    /**
     * A driver's press-with-delay (Puppeteer `type(…, { delay })`, Playwright `pressSequentially`) presses the
     * next key the moment it released the last: flight times (release → next press) under `maxFlightMs` with a
     * spread under `constantFlightMadMs`, and no key ever pressed while another was held.
     */
    maxFlightMs: number;
    constantFlightMadMs: number;
  };
}

export const DEFAULT_POLICY: RiskPolicy = {
  weights: {
    // A bot on the checkout page is the strongest signal there is: alone, it declines.
    AUTOMATION_DETECTED: 80,
    // The page ran somewhere the merchant did not list: a copied checkout or a testing harness.
    HOST_NOT_ALLOWED: 50,
    // Card testing and account farming show up as many charges from one card or one device.
    DEVICE_VELOCITY: 40,
    CARD_VELOCITY: 40,
    // A forged or spoofed browser declares what it is not.
    BROWSER_TYPE_MISMATCH: 30,
    // Proxies and VPNs; also some honest corporate networks, so alone it does not reach review.
    IP_MISMATCH: 25,
    // Ad blockers stop the profiler for honest buyers too; alone it does not reach review.
    PROFILE_MISSING: 20,
    COOKIES_DISABLED: 10,
    // Signals are evidence, not trust
    // (docs/decisions/no-report-at-all-reaches-review-a-report-without-a-profile.md). A session that never
    // got a report (with PROFILE_MISSING, 35): the client never ran the SDK's JavaScript, or did not let it
    // report; at least review.
    SIGNALS_MISSING: 15,
    // A report without the components every real profiler run produces: made up by a script. Review.
    PROFILE_UNCORROBORATED: 35,
    // One page's two requests (session, then signals) come from one browser: another User-Agent is another
    // client; another IP is usually a proxy or a mobile handover, so alone it does not reach review.
    SIGNALS_USER_AGENT_CHANGED: 40,
    SIGNALS_IP_CHANGED: 20,
    // Faster than a profiler can run: a report computed elsewhere (replayed or made up). Review.
    SIGNALS_TOO_FAST: 35,
    // The device says it is another engine or OS than its user agent: spoofed UA or made-up report. Review.
    COMPONENTS_CONTRADICT_USER_AGENT: 40,
    // The session challenge: a wrong answer (or another session's nonce) means the report was not made by the
    // claimed engine in this session: a script or a replay. Alone it reviews rather than declines, because a
    // browser update may one day change an answer for every honest buyer of that engine; with any other tell it
    // declines. No answers at all is what a script that skips them sends, and what a custom profiler that
    // ignores the challenge sends: review, where a person decides.
    CHALLENGE_WRONG: 50,
    CHALLENGE_UNANSWERED: 35,
    // No browser of these versions omits Fetch Metadata on a fetch to a secure origin: the request came from
    // something else. A proxy that strips sec- headers would give every buyer this reason, so alone it reviews
    // (a person looks, the merchant notices and sets VIGIA_HEADER_EVIDENCE=false) rather than declines.
    FETCH_METADATA_MISSING: 50,
    // Client hints of another engine, version or OS than the User-Agent: a forged header set, or a buyer's
    // user-agent switcher extension (which rewrites the User-Agent but not Sec-CH-UA). Review.
    CLIENT_HINTS_CONTRADICT_USER_AGENT: 40,
    // `*` or no Accept-Language is a script's; another language than the page reports is also what a
    // language-spoofing extension gives. Alone it does not reach review.
    ACCEPT_LANGUAGE_MISMATCH: 20,
    // Linking: a device id carried by another engine/OS, or behind many cards, buyers or networks.
    VISITOR_REUSED: 40,
    VISITOR_MANY_CARDS: 40,
    VISITOR_MANY_BUYERS: 30,
    VISITOR_MANY_IPS: 20,
    // The profiler's own detectors (docs/efficacy.md measures each on honest browsers). A headless user agent
    // and a driver's globals are never a buyer's browser: alone, they decline.
    HEADLESS_USER_AGENT: 80,
    DRIVER_GLOBALS: 80,
    // A page that does not fit its window is a driver's emulated viewport, or a buyer with odd window
    // tooling; alone it goes to review, where a person decides.
    EMULATED_VIEWPORT: 40,
    // Chromium without history throttling was launched by a driver's flags; a person would have to pass the
    // flag by hand. Alone it reviews; with another tell it declines.
    HISTORY_UNTHROTTLED: 50,
    // A tampered JavaScript environment (docs/decisions/tampered-environment-counts-once.md). Privacy
    // extensions and user-agent switchers patch the page's natives and navigator too, so tampering alone goes
    // to review, where a person decides, and counts once however many sides saw it (only the first of these
    // three is found); with another automation tell (a viewport, history, protocol or driver tell) it
    // declines.
    NATIVE_LIES: 40,
    WORKER_MISMATCH: 40,
    IFRAME_MISMATCH: 40,
    // Only a protocol client reads the console bait (a driver's BiDi), independent of page patches: review
    // alone (a person's own debugging tools are not ruled out), with tampering or another tell decline.
    DEVTOOLS_PROTOCOL: 50,
    // The platform-wide device graph (docs/decisions/device-graph.md says what each costs real buyers). A
    // genuine visitor id is a hash of its components, so one id with two sets of them is an edited report;
    // but whoever holds a buyer's id can make the buyer's next charge look so: review alone, never decline
    // alone.
    VISITOR_ID_FORGED: 40,
    // A family computer, an office, a lab: one device, several buyers with their own cards at several shops is
    // ordinary. Alone it stays approved (a reason to read); it tips a charge with another tell into review.
    DEVICE_SHARED_ACROSS_MERCHANTS: 15,
    // Four cards or more at three merchants or more within an hour on one device is cross-merchant card testing,
    // not a household; an internet café could do it, so review alone, not decline.
    DEVICE_CARDS_ACROSS_MERCHANTS: 30,
    // How the checkout was filled (docs/decisions/token-behavior-binding.md). Each tell alone reaches review
    // (a form-filling extension, an odd hand), never declines; two of them decline (a driver's fill() and its
    // click: 70).
    BEHAVIOR_SCRIPTED_INPUT: 35,
    BEHAVIOR_ROBOTIC_TYPING: 40,
    BEHAVIOR_POINTER_TELEPORT: 35,
    BEHAVIOR_TOO_FAST: 35,
  },
  thresholds: { review: 30, decline: 70 },
  velocity: {
    device: { maxCharges: 5, windowMinutes: 60 },
    card: { maxCharges: 3, windowMinutes: 60 },
  },
  linking: { maxCards: 3, maxBuyers: 3, maxIps: 4, windowMinutes: 24 * 60 },
  graph: {
    windowMinutes: 7 * 24 * 60,
    sharedMinutes: 24 * 60,
    velocityMinutes: 60,
    maxCards: 3,
    minMerchants: 3,
  },
  timing: { minProfileMs: 20, clockToleranceMs: 100 },
  behavior: {
    minKeystrokes: 10,
    minIntervalMs: 30,
    constantMadMs: 3,
    constantSdMs: 10,
    minDwellMs: 15,
    minMsPerKey: 40,
    maxFlightMs: 25,
    constantFlightMadMs: 10,
  },
};

/** A merchant's own thresholds, when it set them (`PATCH /v1/risk/settings`). */
export interface MerchantRiskThresholds {
  review: number;
  decline: number;
}

export function policyFor(
  merchant: MerchantRiskThresholds | null,
  base: RiskPolicy = DEFAULT_POLICY,
): RiskPolicy {
  return merchant ? { ...base, thresholds: { review: merchant.review, decline: merchant.decline } } : base;
}
