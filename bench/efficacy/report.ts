import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REASON_CODES } from '../../src/server/risk/rules/index.js';
import type { BenchFigure } from '../lib/report.js';
import { machine } from '../lib/report.js';
import { BINARIES, type Engine } from './humans.js';
import type { Outcome } from './lab.js';
import { metTarget, type RowResult } from './rows.js';

const ENGINES: Engine[] = ['chromium', 'firefox', 'webkit'];
const KITS = [
  'puppeteer-extra',
  'puppeteer-extra-plugin-stealth',
  'rebrowser-puppeteer-core',
  'patchright-core',
  'rebrowser-playwright-core',
  'playwright-extra',
  'ghost-cursor',
];

const rate = (part: number, whole: number) => (whole ? part / whole : 0);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : Number.NaN;
};
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

/** The figures of one matrix run: rates, the confusion matrix, visitor-id stability, timings, detector costs. */
export function summarise(results: RowResult[]) {
  // A row that did not run (a browser that did not start) is no evidence either way: counted apart.
  const failed = results.filter((result) => result.error !== undefined);
  const bots = results.filter((result) => result.row.who === 'bot' && result.error === undefined);
  const humans = results.filter((result) => result.row.who === 'human' && result.error === undefined);
  const humanOutcomes = humans.flatMap((result) => result.outcomes);
  const confusion = {
    botFlagged: bots.filter((result) => result.flagged).length,
    botMissed: bots.filter((result) => !result.flagged).length,
    humanFlagged: humans.filter((result) => result.flagged).length,
    humanPassed: humans.filter((result) => !result.flagged).length,
  };
  const stability = ENGINES.map((engine) => {
    const of = (label: string) =>
      humans.find(
        (result) => result.row.engine === engine && result.row.label.startsWith(`${engine}: ${label}`),
      );
    const plain = of('plain start')?.outcomes ?? [];
    const restart = of('restart')?.outcomes[0];
    const second = of('second profile')?.outcomes[0];
    const first = plain[0]?.visitorId ?? null;
    return {
      engine,
      first,
      reload: plain[1] ? plain[1].visitorId === first : null,
      restart: restart ? restart.visitorId === first : null,
      secondProfile: second ? second.visitorId === first : null,
      distinct: new Set(
        humans.filter((r) => r.row.engine === engine).flatMap((r) => r.outcomes.map((o) => o.visitorId)),
      ).size,
    };
  });
  const timings = ENGINES.map((engine) => {
    const values = results
      .filter((result) => result.row.engine === engine)
      .flatMap((result) => result.outcomes)
      .map((outcome) => outcome.setupToSignalsMs)
      .filter((ms): ms is number => ms !== null);
    return { engine, median: median(values), max: Math.max(...values), count: values.length };
  });
  const detectorNames = [
    ...new Set(results.flatMap((r) => r.outcomes.flatMap((o) => Object.keys(o.detectors)))),
  ];
  const fired = (outcomes: Outcome[], name: string) =>
    outcomes.filter((o) => o.detectors[name] === true).length;
  const detectors = detectorNames.map((name) => ({
    name,
    humansFired: fired(humanOutcomes, name),
    humanCheckouts: humanOutcomes.length,
    botRowsFired: bots.filter((r) => fired(r.outcomes, name) > 0).length,
    botRows: bots.length,
  }));
  // Every reason code seen on any charge, with its false-positive cost (human checkouts) and its bot rows.
  const reasonNames = [...new Set(results.flatMap((r) => r.outcomes.flatMap((o) => o.reasons)))].sort();
  const reasons = reasonNames.map((code) => ({
    code,
    humansFired: humanOutcomes.filter((o) => o.reasons.includes(code)).length,
    humanCheckouts: humanOutcomes.length,
    botRowsFired: bots.filter((r) => r.outcomes.some((o) => o.reasons.includes(code))).length,
    botRows: bots.length,
  }));
  return {
    bots,
    humans,
    reasons,
    failed,
    confusion,
    detectionRate: rate(confusion.botFlagged, bots.length),
    falsePositiveRate: rate(confusion.humanFlagged, humans.length),
    humanDeclineRate: rate(
      humans.filter((r) => r.outcomes.some((o) => o.status === 'declined')).length,
      humans.length,
    ),
    stability,
    timings,
    detectors,
  };
}

export function figures(summary: ReturnType<typeof summarise>): BenchFigure[] {
  const name = 'efficacy lab';
  const target = (metric: string, value: number, unit: string, goal: number) => ({
    benchmark: name,
    metric,
    value,
    unit,
    target: `${goal}${unit === '%' ? ' %' : ''}`,
    pass: value === goal,
  });
  return [
    target('rows that did not run', summary.failed.length, 'rows', 0),
    target('detection rate (bot rows flagged)', summary.detectionRate * 100, '%', 100),
    target('false-positive rate (human rows flagged)', summary.falsePositiveRate * 100, '%', 0),
    target('human decline rate', summary.humanDeclineRate * 100, '%', 0),
    ...summary.stability.map((s) => ({
      benchmark: name,
      metric: `visitor id stable across reload and restart, ${s.engine}`,
      value: s.reload && s.restart ? 1 : 0,
      unit: '(1 = yes)',
      target: '1',
      pass: Boolean(s.reload && s.restart),
    })),
    ...summary.timings.map((t) => ({
      benchmark: name,
      metric: `setup() → signals accepted, median, ${t.engine}`,
      value: t.median,
      unit: 'ms',
    })),
  ];
}

function versionOf(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 20_000,
    })
      .trim()
      .split('\n')[0]!;
  } catch {
    return 'unknown';
  }
}

function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** A prose section written by hand (bench/efficacy/prose/<name>.md), kept across runs of the lab. */
const prose = (name: string) =>
  fs.readFileSync(path.join(import.meta.dirname, 'prose', `${name}.md`), 'utf8').trimEnd() + '\n';

const cell = (value: string) => value.replaceAll('|', '\\|');

/**
 * For a bot row that got through: every check the lab can see tried on it and what each saw — each profiler
 * detector's answer, BotD's, and every risk rule of the engine (those not in the verdict did not fire).
 */
function checksTried(result: RowResult): string[] {
  const outcome = result.outcomes[0]!;
  const detectors = Object.entries(outcome.detectors);
  const fired = new Set(result.outcomes.flatMap((o) => o.reasons));
  return [
    `### ${result.row.label}`,
    '',
    `- Verdict: ${result.outcomes.map((o) => `${o.status} ${o.score}`).join('; ')}; visitor id ${outcome.visitorId ?? 'none'}.`,
    `- BotD: ${outcome.botDetected === null ? 'no report' : outcome.botDetected ? 'detected' : 'not detected'}.`,
    `- Profiler detectors (${detectors.length}): ${detectors.map(([name, value]) => `${name} ${value ? '**fired**' : 'no'}`).join(', ') || 'none reported'}.`,
    `- Risk rules (${REASON_CODES.length}): ${REASON_CODES.map((code) => (fired.has(code) ? `**${code}**` : code)).join(', ')} — in bold those that fired.`,
    '',
  ];
}

/** docs/efficacy.md: how it was measured, on what, and every row's verdict. */
export function markdown(summary: ReturnType<typeof summarise>, at: string): string {
  // dpkg-query's own format syntax, not a template placeholder.
  const webkitVersion = versionOf('dpkg-query', ['-W', `-f=${'$'}{Version}`, 'libwebkit2gtk-4.1-0']);
  const versions = [
    `Engines: ${versionOf(BINARIES.chromium, ['--version'])} (+ chromedriver ${versionOf('/usr/bin/chromedriver', ['--version']).split(' ')[1] ?? '?'}); ${versionOf(BINARIES.firefox, ['--version'])}; WebKitGTK MiniBrowser ${webkitVersion}`,
    `Drivers: Playwright ${packageVersion('@playwright/test')}, puppeteer-core ${packageVersion('puppeteer-core')}, selenium-webdriver ${packageVersion('selenium-webdriver')}; profiler: FingerprintJS ${packageVersion('@fingerprintjs/fingerprintjs')}, BotD ${packageVersion('@fingerprintjs/botd')}`,
    `Evasion kits (npm, as published): ${KITS.map((name) => `${name} ${packageVersion(name)}`).join(', ')}`,
  ];
  const verdicts = (result: RowResult) =>
    result.error
      ? `**error**: ${cell(result.error)}`
      : result.outcomes.map((o) => `${o.status} ${o.score} (${o.reasons.join(', ') || '—'})`).join('; ');
  const firedDetectors = (result: RowResult) =>
    [...new Set(result.outcomes.flatMap((o) => Object.keys(o.detectors).filter((k) => o.detectors[k])))].join(
      ', ',
    ) || '—';
  const rows = (who: 'bot' | 'human') =>
    [
      ...(who === 'bot' ? summary.bots : summary.humans),
      ...summary.failed.filter((r) => r.row.who === who),
    ].map(
      (r) =>
        `| ${cell(r.row.label)} | ${verdicts(r)} | ${firedDetectors(r)} | ${metTarget(r) ? 'yes' : '**no**'} |`,
    );
  const c = summary.confusion;
  const approvedBots = summary.bots.filter((r) => !r.flagged);
  return [
    '# Fraud efficacy lab',
    '',
    `Generated by \`npm run bench -- efficacy\` (bench/efficacy.bench.ts) at ${at}. Do not edit by hand.`,
    '',
    `Machine: ${machine()}.`,
    ...versions.map((line) => `${line}.`),
    '',
    "Each row opens the lab's checkout page (a page on its own origin that runs `setup()`, waits until the",
    'service accepted the signals, then shows a checkout form: buyer name, e-mail, CPF, card, Pay) against the',
    'real service over real HTTP, each row with its own merchant and its own buyer (a valid CPF, a distinct name',
    'and e-mail), the approved test card for all. Pay tokenises the card in the page (`cards.tokenize()`) and',
    "posts the token and the buyer to the lab's merchant backend, which charges with the secret key. Human rows",
    'are the engine started from its binary under Xvfb, no driver and no automation switch, the form filled',
    'through X input events (xdotool: key holds ~85 ms, key-to-key intervals ~190 ms drawn log-normal, a',
    'pause between fields, an occasional typo and BackSpace, a curved pointer path onto each field and Pay; one',
    'buyer uses the keyboard only). Bot rows are drivers in their default configuration, the stealth',
    'configuration and the evasion kits (bench/efficacy/kits/), each filling the form through its own input API;',
    'scripted rows have no browser (their card token comes over HTTP with the public key), and three of them',
    "copy the first Chromium buyer: its components with a fresh visitor id (a), plus its browser's request",
    'headers (b), or its whole report, visitor id and timing included, at another merchant (c).',
    "Playwright's forks (patchright, rebrowser-playwright, playwright-extra) drive Firefox and WebKit only through",
    "Playwright's own patched builds, which cannot be downloaded here: they run on Chromium only.",
    '"Flagged" is a charge in review or declined.',
    '',
    '## Summary',
    '',
    `- Detection rate: **${percent(summary.detectionRate)}** (${c.botFlagged} of ${summary.bots.length} bot rows flagged; target 100 %).`,
    `- False-positive rate: **${percent(summary.falsePositiveRate)}** (${c.humanFlagged} of ${summary.humans.length} human rows flagged; target 0 %).`,
    `- Human decline rate: **${percent(summary.humanDeclineRate)}**.`,
    `- Rows that did not run (left out of the rates): ${summary.failed.length}${summary.failed.length ? ` (${summary.failed.map((r) => cell(r.row.label)).join('; ')})` : ''}.`,
    '',
    '| | flagged | not flagged |',
    '|---|---|---|',
    `| bot rows | ${c.botFlagged} | ${c.botMissed} |`,
    `| human rows | ${c.humanFlagged} | ${c.humanPassed} |`,
    '',
    '## Visitor-id stability',
    '',
    '| engine | reload, same profile | restart, same profile | second profile gives the same id | distinct ids over all human rows |',
    '|---|---|---|---|---|',
    ...summary.stability.map(
      (s) => `| ${s.engine} | ${s.reload} | ${s.restart} | ${s.secondProfile} | ${s.distinct} |`,
    ),
    '',
    '## Time from `setup()` to signals accepted',
    '',
    '| engine | median | max | checkouts |',
    '|---|---|---|---|',
    ...summary.timings.map(
      (t) => `| ${t.engine} | ${t.median.toFixed(0)} ms | ${t.max.toFixed(0)} ms | ${t.count} |`,
    ),
    '',
    '## What a fraudster now needs',
    '',
    prose('what-a-fraudster-now-needs'),
    '## What no client-side check can see',
    '',
    prose('what-no-client-side-check-can-see'),
    '## Detectors (src/sdk/src/profiler/detectors)',
    '',
    '| detector | fired on human checkouts (false-positive cost) | fired on bot rows |',
    '|---|---|---|',
    ...summary.detectors.map(
      (d) => `| ${d.name} | ${d.humansFired} of ${d.humanCheckouts} | ${d.botRowsFired} of ${d.botRows} |`,
    ),
    '',
    '## Reason codes (every code seen on a charge)',
    '',
    '| reason code | on human checkouts (false-positive cost) | on bot rows |',
    '|---|---|---|',
    ...summary.reasons.map(
      (r) => `| ${r.code} | ${r.humansFired} of ${r.humanCheckouts} | ${r.botRowsFired} of ${r.botRows} |`,
    ),
    '',
    '## Bot rows (each must end flagged)',
    '',
    '| row | verdict (status score (reasons)) | detectors fired | met |',
    '|---|---|---|---|',
    ...rows('bot'),
    '',
    '## Human rows (each must end not flagged; the ad-blocked one may go to review, never decline)',
    '',
    '| row | verdict (status score (reasons)) | detectors fired | met |',
    '|---|---|---|---|',
    ...rows('human'),
    '',
    '## Bot rows approved: every check tried and what it saw',
    '',
    ...(approvedBots.length
      ? approvedBots.flatMap(checksTried)
      : ['None: every bot row that ran was flagged.', '']),
  ].join('\n');
}
