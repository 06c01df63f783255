import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Driver, drive } from './bots.js';
import { startDisplay } from './display.js';
import { hands, type InputStyle } from './hands.js';
import { type Engine, type HumanVariant, launchHuman } from './humans.js';
import { type Lab, type Layout, type Outcome, type Run, startLab } from './lab.js';
import { CHROME_POSE, type Pose } from './service-client.js';

/** How a client with no browser gets its signals (the lab's scripted rows). */
export type Script =
  /** Made-up signals: `{bot:{detected:false}}` and a random visitor id. */
  | 'forged'
  /** A buyer's stored signals posted at once onto a new session (same merchant kind, no delay). */
  | 'replay'
  /** (a) The session's signals token sent back, ~1 s as a profiler takes, a real buyer's components copied, a fresh visitor id. */
  | 'copied-profile'
  /** (b) The same, with the buyer's browser request headers and session fields copied too. */
  | 'copied-profile-and-headers'
  /** (c) A real buyer's complete report (visitor id included), headers and timing, at another merchant. */
  | 'full-replay';

export type Row =
  | { who: 'bot'; label: string; engine: Engine; driver: Driver; headless: boolean; blocked?: boolean }
  | {
      who: 'human';
      label: string;
      engine: Engine;
      /** Profile folder name: rows with the same name share one profile (a restart). */
      profile: string;
      variant?: HumanVariant;
      /** Pointer onto each field (default), or keyboard only: Tab between fields, Enter to pay. */
      input?: InputStyle;
      blocked?: boolean;
      /** The page reloads itself this many times after its checkout (visitor-id stability). */
      reloads?: number;
    }
  | { who: 'bot'; label: string; engine: 'none'; client: Script };

export interface RowResult {
  row: Row;
  outcomes: Outcome[];
  /** Review or declined on any of the row's checkouts. */
  flagged: boolean;
  error?: string;
}

const isFlagged = (outcome: Outcome) => outcome.status === 'review' || outcome.status === 'declined';

const ENGINES: Engine[] = ['chromium', 'firefox', 'webkit'];

const bot = (label: string, engine: Engine, driver: Driver, headless: boolean, blocked?: boolean): Row => ({
  who: 'bot',
  label,
  engine,
  driver,
  headless,
  ...(blocked && { blocked }),
});

// The rows both matrices run.
const PLAYWRIGHT_HEADLESS = bot('Playwright, headless Chromium', 'chromium', 'playwright-chromium', true);
const PUPPETEER_FIREFOX_HEADLESS = bot(
  'Puppeteer, headless Firefox ESR (BiDi)',
  'firefox',
  'puppeteer-firefox',
  true,
);
const SELENIUM_WEBKIT = bot(
  'Selenium + WebKitWebDriver, MiniBrowser (Xvfb)',
  'webkit',
  'selenium-webkit',
  false,
);
const STEALTH = bot(
  'Stealth: Puppeteer, headful Chromium, no --enable-automation, AutomationControlled off',
  'chromium',
  'puppeteer-chromium-stealth',
  false,
);
// The evasion kits as a fraudster downloads them (bench/efficacy/kits/): headful under Xvfb, the real window
// as the viewport, the kit's own launch defaults minus the switches detectors key on. Playwright's forks drive
// only Playwright's own Firefox and WebKit builds, which cannot be downloaded here: Chromium rows only.
const KIT_ARGS = 'headful, real window, no --enable-automation / --disable-ipc-flooding-protection';
const PUPPETEER_EXTRA_STEALTH = bot(
  `Kit: puppeteer-extra + stealth plugin, Chromium (${KIT_ARGS}), page.type`,
  'chromium',
  'puppeteer-extra-stealth-chromium',
  false,
);
const KITS: Row[] = [
  PUPPETEER_EXTRA_STEALTH,
  bot(
    `Kit: puppeteer-extra + stealth plugin + ghost-cursor, Chromium (${KIT_ARGS})`,
    'chromium',
    'puppeteer-extra-stealth-chromium-ghost-cursor',
    false,
  ),
  bot(
    'Kit: puppeteer-extra + stealth plugin (less its two CDP-only evasions), Firefox ESR over BiDi (headful, real window), page.type',
    'firefox',
    'puppeteer-extra-stealth-firefox',
    false,
  ),
  bot(
    `Kit: rebrowser-puppeteer-core, Chromium (${KIT_ARGS}), page.type`,
    'chromium',
    'rebrowser-puppeteer-chromium',
    false,
  ),
  bot(
    `Kit: rebrowser-puppeteer-core + ghost-cursor, Chromium (${KIT_ARGS})`,
    'chromium',
    'rebrowser-puppeteer-chromium-ghost-cursor',
    false,
  ),
  bot(
    'Kit: patchright-core, Chromium (persistent context, headful, viewport: null, its own switches), pressSequentially',
    'chromium',
    'patchright-chromium',
    false,
  ),
  bot(
    `Kit: rebrowser-playwright-core, Chromium (${KIT_ARGS}), pressSequentially`,
    'chromium',
    'rebrowser-playwright-chromium',
    false,
  ),
  bot(
    'Kit: playwright-extra + stealth plugin, Chromium (headful, viewport: null, no --disable-ipc-flooding-protection), pressSequentially',
    'chromium',
    'playwright-extra-stealth-chromium',
    false,
  ),
];
const script = (label: string, client: Script): Row => ({ who: 'bot', label, engine: 'none', client });
const FORGED = script('Forged: no browser, {bot:{detected:false}, visitor_id:<random>}', 'forged');
// The no-browser rows that copy a real buyer run after the buyers (they copy the first Chromium buyer).
const COPIED_PROFILE = script(
  "Script (a): no browser, Chrome UA, signals token sent back, ~1 s delay, a Chromium buyer's components copied, fresh visitor id",
  'copied-profile',
);

/** The full matrix (`npm run bench -- efficacy`). */
export function fullMatrix(): Row[] {
  const bots: Row[] = [
    PLAYWRIGHT_HEADLESS,
    bot('Playwright, headful Chromium (Xvfb)', 'chromium', 'playwright-chromium', false),
    bot('Puppeteer, headless Chromium (CDP)', 'chromium', 'puppeteer-chromium', true),
    bot('Puppeteer, headful Chromium (CDP, Xvfb)', 'chromium', 'puppeteer-chromium', false),
    PUPPETEER_FIREFOX_HEADLESS,
    bot('Puppeteer, headful Firefox ESR (BiDi, Xvfb)', 'firefox', 'puppeteer-firefox', false),
    bot('Selenium + chromedriver, headless', 'chromium', 'selenium-chromedriver', true),
    bot('Selenium + chromedriver, headful (Xvfb)', 'chromium', 'selenium-chromedriver', false),
    SELENIUM_WEBKIT,
    STEALTH,
    bot(
      'Playwright, headless Chromium, profiler chunk blocked',
      'chromium',
      'playwright-chromium',
      true,
      true,
    ),
    ...KITS,
    FORGED,
  ];
  const humans = ENGINES.flatMap((engine): Row[] => {
    const human = (label: string, profile: string, more: Partial<Row> = {}): Row =>
      ({ who: 'human', label: `${engine}: ${label}`, engine, profile, ...more }) as Row;
    // MiniBrowser has no window-size option (its size variant is full screen) and takes its time zone as a switch.
    const sizes: [number, number][] =
      engine === 'webkit'
        ? [[1024, 640]]
        : [
            [1024, 640],
            [1366, 768],
            [1600, 900],
          ];
    return [
      human('plain start, then a reload', 'a', { reloads: 1 }),
      human('restart, same profile', 'a'),
      human('second profile', 'b'),
      ...sizes.map(([width, height]) =>
        human(
          `other window size ${engine === 'webkit' ? '(full screen)' : `${width}×${height}`}`,
          `size-${width}`,
          {
            variant: { windowSize: [width, height] },
          },
        ),
      ),
      human('TZ=America/Sao_Paulo LANG=pt_BR', 'locale', {
        variant: { locale: { tz: 'America/Sao_Paulo', lang: 'pt_BR.UTF-8' } },
      }),
      human('TZ=UTC LANG=en_US', 'locale-us', { variant: { locale: { tz: 'UTC', lang: 'en_US.UTF-8' } } }),
      human('keyboard only (Tab between fields, Enter to pay)', 'keyboard', { input: 'keyboard' }),
      human('private window', 'private', { variant: { privateWindow: true } }),
      human('cookies blocked', 'cookies', { variant: { cookiesBlocked: true } }),
      human('profiler chunk blocked (ad blocker)', 'blocked', { blocked: true }),
    ];
  });
  const copiers: Row[] = [
    script("Replay: a buyer's signals posted onto a new session", 'replay'),
    COPIED_PROFILE,
    script(
      "Script (b): as (a), plus the buyer's browser request headers (sec-ch-ua*, sec-fetch-*, accept-language, user agent, origin) and session fields copied",
      'copied-profile-and-headers',
    ),
    script(
      "Script (c): a Chromium buyer's complete report (visitor id included), headers and setup→signals timing replayed at another merchant, another buyer",
      'full-replay',
    ),
  ];
  return [...bots, ...humans, ...copiers];
}

/**
 * The reduced matrix `npm test` runs: a bot and a buyer per engine, the stealth row, puppeteer-extra + stealth,
 * the forged row, and (after the buyers it copies) the copied-profile script.
 */
export function reducedMatrix(): Row[] {
  return [
    PLAYWRIGHT_HEADLESS,
    PUPPETEER_FIREFOX_HEADLESS,
    SELENIUM_WEBKIT,
    STEALTH,
    PUPPETEER_EXTRA_STEALTH,
    FORGED,
    ...ENGINES.map(
      (engine): Row => ({ who: 'human', label: `${engine}: plain start`, engine, profile: 'a' }),
    ),
    COPIED_PROFILE,
  ];
}

const DEADLINE_MS = 90_000;

/** Waits until `ready()` holds, failing early on a page error, or after the deadline with `what`. */
async function waitFor(lab: Lab, run: Run, ready: () => boolean, what: string) {
  const deadline = Date.now() + DEADLINE_MS;
  while (!ready()) {
    if (lab.errorsOf(run).length) throw new Error(`page error: ${lab.errorsOf(run).join(' | ')}`);
    if (Date.now() > deadline) throw new Error(`${what} after ${DEADLINE_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Each load of the row's page: wait for its form, have `fill` fill it, wait for its checkout. */
async function checkouts(
  lab: Lab,
  run: Run,
  loads: number,
  fill: (layout: Layout) => Promise<void>,
): Promise<Outcome[]> {
  for (let load = 0; load < loads; load++) {
    await waitFor(lab, run, () => run.layouts.length > load, `no checkout form (load ${load + 1})`);
    await fill(run.layouts[load]!);
    await waitFor(lab, run, () => run.outcomes.length > load, `no checkout (load ${load + 1})`);
  }
  return run.outcomes.slice(0, loads);
}

/** A real buyer's checkout, for the scripted rows that copy one. */
interface Source {
  run: Run;
  outcome: Outcome;
}

/**
 * Runs `rows` in order against one lab (service + checkout page) and one Xvfb display, each row with its own
 * merchant and buyer; human profiles live in one temporary folder per matrix, so a restart finds its profile.
 */
export async function runMatrix(rows: Row[], log: (line: string) => void = () => {}): Promise<RowResult[]> {
  const lab = await startLab();
  const display = await startDisplay();
  const buyerHands = hands(display.display);
  const profiles = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-efficacy-profiles-'));
  // The first Chromium buyer's checkout, which the scripted rows copy (they claim a Chrome user agent).
  let source: Source | undefined;
  const results: RowResult[] = [];
  try {
    for (const row of rows) {
      const run = await lab.newRun(row.label);
      const started = Date.now();
      let result: RowResult;
      try {
        let outcomes: Outcome[];
        if (row.engine === 'none') {
          outcomes = [await scriptedCheckout(run, row.client, source)];
        } else if (row.who === 'bot') {
          const driven = await drive(row.driver, {
            url: run.url({ blocked: row.blocked }),
            headless: row.headless,
            display: display.display,
          });
          try {
            outcomes = await checkouts(lab, run, 1, () => driven.fill(run.checkout));
          } finally {
            await driven.close().catch(() => undefined);
          }
        } else {
          const browser = launchHuman(row.engine, {
            display: display.display,
            profile: path.join(profiles, `${row.engine}-${row.profile}`),
            url: run.url({ blocked: row.blocked, reloads: row.reloads }),
            variant: row.variant,
          });
          try {
            outcomes = await checkouts(lab, run, 1 + (row.reloads ?? 0), (layout) =>
              buyerHands.fill(layout, run.checkout, row.input),
            );
          } finally {
            await browser.close();
          }
          if (!source && !row.blocked && row.engine === 'chromium') source = { run, outcome: outcomes[0]! };
        }
        result = { row, outcomes, flagged: outcomes.some(isFlagged) };
      } catch (error) {
        result = {
          row,
          outcomes: [],
          flagged: false,
          error: String((error as Error).message ?? error).slice(0, 500),
        };
      }
      results.push(result);
      const verdicts = result.outcomes
        .map((o) => `${o.status} ${o.score} [${o.reasons.join(',')}]`)
        .join('; ');
      log(
        `${row.who} | ${row.label} | ${result.error ? `ERROR ${result.error}` : verdicts} | ${Date.now() - started} ms`,
      );
    }
  } finally {
    await display.stop();
    await lab.stop();
    fs.rmSync(profiles, { recursive: true, force: true });
  }
  return results;
}

// The request headers a script copies from a browser: what the service could compare with the claimed engine.
const COPIED_HEADERS = /^(sec-ch-ua.*|sec-fetch-.*|accept-language|user-agent|origin)$/;

/** The browser's own pose, from the session it created: its headers and the session fields it sent. */
function copiedPose(source: Source): Pose {
  const request = source.run.sessionRequests[0];
  if (!request) throw new Error("the lab saw no session creation from the buyer's browser");
  return {
    headers: Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => COPIED_HEADERS.test(name)),
    ),
    sessionBody: request.body,
  };
}

/** A row with no browser: signals as `client` makes them, a card token over HTTP with the public key, a charge. */
async function scriptedCheckout(run: Run, client: Script, source: Source | undefined): Promise<Outcome> {
  const signals: Record<string, unknown> = {
    ip_lookup: { status: 'ok', ip_address: '127.0.0.1', source: 'https://api.ipify.org', duration_ms: 40 },
    profiler: {
      provider: 'fingerprintjs+botd',
      visitor_id: randomVisitorId(),
      components: {},
      bot: { detected: false },
      duration_ms: 250,
    },
  };
  let pose = CHROME_POSE;
  let delayMs = 0;
  if (client !== 'forged') {
    if (!source) throw new Error('this row copies a Chromium buyer: it must run after one');
    const stored = await source.run.client.readSession(source.outcome.sessionId);
    if (!stored.signals?.profiler) throw new Error("the buyer's session has no profiler report to copy");
    signals.ip_lookup = stored.signals.ip_lookup;
    signals.profiler =
      client === 'replay' || client === 'full-replay'
        ? stored.signals.profiler
        : { ...stored.signals.profiler, visitor_id: randomVisitorId() };
    if (client === 'copied-profile-and-headers' || client === 'full-replay') pose = copiedPose(source);
    // A careful script waits at least as long as the report it sends claims to have taken (~1 s here).
    const claimedMs = Math.max(stored.signals.profiler.duration_ms, durationOf(stored.signals.ip_lookup));
    if (client !== 'replay')
      delayMs =
        client === 'full-replay'
          ? Math.max(source.outcome.setupToSignalsMs ?? 0, claimedMs + 50)
          : Math.max(1_000, claimedMs + 50);
  }
  const sessionId = await run.client.postSignalsWithoutBrowser(signals, { pose, delayMs });
  const token = await run.client.tokenize(run.checkout.card, pose);
  return {
    ...(await run.client.chargeAndRead(sessionId, token, run.checkout.buyer)),
    setupToSignalsMs: null,
    userAgent: null,
  };
}

const durationOf = (lookup: unknown) => Number((lookup as { duration_ms?: number } | null)?.duration_ms ?? 0);
const randomVisitorId = () => randomUUID().replaceAll('-', '');

/**
 * Whether a row ended as it must: a bot flagged; a buyer not flagged, except the buyer whose ad blocker stopped
 * the profiler, who may go to review but never be declined.
 */
export function metTarget(result: RowResult): boolean {
  if (result.error !== undefined) return false;
  if (result.row.who === 'bot') return result.flagged;
  if ('blocked' in result.row && result.row.blocked)
    return result.outcomes.every((outcome) => outcome.status !== 'declined');
  return !result.flagged;
}
