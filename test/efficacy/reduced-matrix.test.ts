import { beforeAll, describe, expect, it } from 'vitest';
import { labCheckout } from '../../bench/efficacy/buyers.js';
import { type Row, type RowResult, reducedMatrix, runMatrix } from '../../bench/efficacy/rows.js';
import { ensureSdkBuilt } from '../../bench/lib/sdk-dist.js';

// The reduced efficacy matrix (issues 9 and 22): a driven browser and a plainly started one per engine (Chromium,
// Firefox ESR, WebKitGTK MiniBrowser, the headful ones under the lab's own Xvfb), the stealth Puppeteer row,
// the puppeteer-extra + stealth kit (headful, real window), the forged no-browser client and the script that
// copies a real buyer's components, each against the real service and the lab's checkout over real HTTP. Every
// browser row fills the checkout form (buyers through xdotool's X input, bots through their driver's own input
// API); the page tokenises the card and the lab's backend charges it. The full matrix and its figures:
// `npm run bench -- efficacy` → docs/efficacy.md.
const ROWS = reducedMatrix();
const results = new Map<string, RowResult>();

beforeAll(async () => {
  ensureSdkBuilt();
  for (const result of await runMatrix(ROWS)) results.set(result.row.label, result);
}, 900_000);

const outcomeOf = (row: Row) => {
  const result = results.get(row.label);
  expect(result?.error, `${row.label} ran`).toBeUndefined();
  expect(result!.outcomes.length).toBeGreaterThan(0);
  return result!.outcomes[0]!;
};

describe('efficacy lab, reduced matrix', () => {
  it.each(ROWS.filter((row) => row.engine !== 'none').map((row) => [row.label, row] as const))(
    'fills the checkout form of "%s": the charge is for the buyer typed in, with the card tokenised in the page',
    (_label, row) => {
      // Rows get their buyers in matrix order (bench/efficacy/buyers.ts).
      expect(outcomeOf(row).buyer).toEqual(labCheckout(ROWS.indexOf(row)).buyer);
    },
  );

  it.each(ROWS.filter((row) => row.who === 'bot').map((row) => [row.label, row] as const))(
    'flags the bot row "%s" (review or declined)',
    (_label, row) => {
      expect(outcomeOf(row).status).toMatch(/^(review|declined)$/);
    },
  );

  it('declines the stealth row by its emulated viewport and unthrottled history, navigator.webdriver hidden', () => {
    const outcome = outcomeOf(ROWS.find((row) => row.label.startsWith('Stealth'))!);
    expect(outcome.botDetected).toBe(false);
    expect(outcome.detectors).toMatchObject({ emulated_viewport: true, history_unthrottled: true });
    expect(outcome.reasons).toEqual(expect.arrayContaining(['EMULATED_VIEWPORT', 'HISTORY_UNTHROTTLED']));
    expect(outcome.status).toBe('declined');
  });

  it.each(ROWS.filter((row) => row.who === 'human').map((row) => [row.label, row] as const))(
    'approves the buyer "%s", profiled, with no detector fired',
    (_label, row) => {
      const outcome = outcomeOf(row);
      expect(outcome.status).toBe('approved');
      expect(outcome.visitorId).toMatch(/^[0-9a-f]{32}$/);
      expect(outcome.setupToSignalsMs).toBeGreaterThan(0);
      expect(Object.values(outcome.detectors)).not.toContain(true);
    },
  );
});
