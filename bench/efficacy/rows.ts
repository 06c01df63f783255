import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Driver, drive } from './bots.js';
import { startDisplay } from './display.js';
import { type Engine, type HumanVariant, launchHuman } from './humans.js';
import { type Lab, type Outcome, type Run, startLab } from './lab.js';

export type Row =
  | { who: 'bot'; label: string; engine: Engine; driver: Driver; headless: boolean; blocked?: boolean }
  | {
      who: 'human';
      label: string;
      engine: Engine;
      /** Profile folder name: rows with the same name share one profile (a restart). */
      profile: string;
      variant?: HumanVariant;
      blocked?: boolean;
      /** The page reloads itself this many times after its checkout (visitor-id stability). */
      reloads?: number;
    }
  | { who: 'bot'; label: string; engine: 'none'; client: 'forged' | 'replay' };

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
const FORGED: Row = {
  who: 'bot',
  label: 'Forged: no browser, {bot:{detected:false}, visitor_id:<random>}',
  engine: 'none',
  client: 'forged',
};

/** The full matrix of issue 9 (`npm run bench -- efficacy`). */
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
    FORGED,
  ];
  const humans = ENGINES.flatMap((engine): Row[] => {
    const human = (label: string, profile: string, more: Partial<Row> = {}): Row =>
      ({ who: 'human', label: `${engine}: ${label}`, engine, profile, ...more }) as Row;
    return [
      human('plain start, then a reload', 'a', { reloads: 1 }),
      human('restart, same profile', 'a'),
      human('second profile', 'b'),
      human('other window size', 'size', { variant: { windowSize: [1024, 640] } }),
      human('TZ=America/Sao_Paulo LANG=pt_BR', 'locale', {
        variant: { locale: { tz: 'America/Sao_Paulo', lang: 'pt_BR.UTF-8' } },
      }),
      human('private window', 'private', { variant: { privateWindow: true } }),
      human('cookies blocked', 'cookies', { variant: { cookiesBlocked: true } }),
      human('profiler chunk blocked (ad blocker)', 'blocked', { blocked: true }),
    ];
  });
  // The replay row replays the first buyer's report, so it runs after the buyers.
  const replay: Row = {
    who: 'bot',
    label: "Replay: a buyer's signals posted onto a new session",
    engine: 'none',
    client: 'replay',
  };
  return [...bots, ...humans, replay];
}

/** The reduced matrix `npm test` runs: a bot and a buyer per engine, the stealth and the forged rows. */
export function reducedMatrix(): Row[] {
  return [
    PLAYWRIGHT_HEADLESS,
    PUPPETEER_FIREFOX_HEADLESS,
    SELENIUM_WEBKIT,
    STEALTH,
    FORGED,
    ...ENGINES.map(
      (engine): Row => ({ who: 'human', label: `${engine}: plain start`, engine, profile: 'a' }),
    ),
  ];
}

const OUTCOME_DEADLINE_MS = 90_000;

async function checkouts(lab: Lab, run: Run, count: number): Promise<Outcome[]> {
  const deadline = Date.now() + OUTCOME_DEADLINE_MS;
  while (run.outcomes.length < count) {
    if (Date.now() > deadline)
      throw new Error(
        `no checkout after ${OUTCOME_DEADLINE_MS / 1000} s; page errors: ${lab.errorsOf(run).join(' | ') || 'none'}`,
      );
    if (lab.errorsOf(run).length) throw new Error(`page error: ${lab.errorsOf(run).join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return run.outcomes.slice(0, count);
}

/**
 * Runs `rows` in order against one lab (service + checkout page) and one Xvfb display, each row with its own
 * merchant; human profiles live in one temporary folder per matrix, so a restart finds its profile.
 */
export async function runMatrix(rows: Row[], log: (line: string) => void = () => {}): Promise<RowResult[]> {
  const lab = await startLab();
  const display = await startDisplay();
  const profiles = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-efficacy-profiles-'));
  // A buyer's stored report, for the replay row.
  let buyer: { run: Run; sessionId: string } | undefined;
  const results: RowResult[] = [];
  try {
    for (const row of rows) {
      const run = await lab.newRun(row.label);
      const started = Date.now();
      let result: RowResult;
      try {
        let outcomes: Outcome[];
        if (row.engine === 'none') {
          outcomes = [await noBrowserCheckout(run, row.client, buyer)];
        } else if (row.who === 'bot') {
          const driven = await drive(row.driver, {
            url: run.url({ blocked: row.blocked }),
            headless: row.headless,
            display: display.display,
          });
          try {
            outcomes = await checkouts(lab, run, 1);
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
            outcomes = await checkouts(lab, run, 1 + (row.reloads ?? 0));
          } finally {
            await browser.close();
          }
          if (!buyer && !row.blocked) buyer = { run, sessionId: outcomes[0]!.sessionId };
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

async function noBrowserCheckout(
  run: Run,
  client: 'forged' | 'replay',
  buyer: { run: Run; sessionId: string } | undefined,
): Promise<Outcome> {
  let signals: Record<string, unknown>;
  if (client === 'forged') {
    signals = {
      ip_lookup: { status: 'ok', ip_address: '127.0.0.1', source: 'https://api.ipify.org', duration_ms: 40 },
      profiler: {
        provider: 'fingerprintjs+botd',
        visitor_id: randomUUID().replaceAll('-', ''),
        components: {},
        bot: { detected: false },
        duration_ms: 250,
      },
    };
  } else {
    if (!buyer) throw new Error('the replay row needs a buyer row before it');
    const stored = await buyer.run.client.readSession(buyer.sessionId);
    if (!stored.signals?.profiler) throw new Error("the buyer's session has no profiler report to replay");
    signals = { ip_lookup: stored.signals.ip_lookup, profiler: stored.signals.profiler };
  }
  const sessionId = await run.client.postSignalsWithoutBrowser(signals);
  return { ...(await run.client.chargeAndRead(sessionId)), setupToSignalsMs: null, userAgent: null };
}

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
