import { beforeAll, describe, expect, it } from 'vitest';
import { type Row, type RowResult, reducedMatrix, runMatrix } from '../../bench/efficacy/rows.js';
import { ensureSdkBuilt } from '../../bench/lib/sdk-dist.js';

// The reduced efficacy matrix (issue 9): a driven browser and a plainly started one per engine (Chromium,
// Firefox ESR, WebKitGTK MiniBrowser, the headful ones under the lab's own Xvfb), the stealth Puppeteer row
// and the forged no-browser client, each against the real service and the lab's checkout over real HTTP.
// The full matrix and its figures: `npm run bench -- efficacy` → docs/efficacy.md.
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
