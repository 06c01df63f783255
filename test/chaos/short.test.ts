// The short chaos run (bench/chaos/, `npm run chaos -- --short`): two instances and a separate worker on their own
// PostgreSQL, then one instance on SQLite on a small file system, each under load (buyers' checkouts, and a
// marketplace's split charges, settlements, anticipations and withdrawals) while a few faults hit it (an instance
// killed, PostgreSQL crash-restarted, the disk filled, a connection cut mid-request). Nothing acknowledged may be
// lost or doubled, nothing consumed twice, every event delivered, no process crash, no wallet below zero, and the
// ledger balances.
import { describe, expect, test } from 'vitest';
import { shortPhases } from '../../bench/chaos/main.js';
import { runPhase } from '../../bench/chaos/run.js';

describe.each(shortPhases())('$name', (phase) => {
  test(`${phase.faults.join(', ')}: nothing lost, doubled or crashed`, async () => {
    const report = await runPhase(phase);
    const summary = JSON.stringify(report, null, 2);
    expect(report.charges.acknowledged, summary).toBeGreaterThan(0);
    expect(report.charges.lost, summary).toBe(0);
    expect(report.charges.duplicated, summary).toBe(0);
    expect(report.charges.refundsLost, summary).toBe(0);
    expect(report.charges.doubleRefunds, summary).toBe(0);
    expect(report.sessionsConsumedTwice, summary).toBe(0);
    expect(report.tokensUsedTwice, summary).toBe(0);
    expect(report.webhooks.missing, summary).toBe(0);
    expect(report.crashes, summary).toEqual([]);
    expect(report.requests.outsideFaults5xx, summary).toBe(0);
    // Withdrawals and anticipations: each acknowledged one exists, once for its key; no wallet below zero. (How
    // many a 20 s load gets acknowledged varies: the full run requires some of each.)
    for (const figures of [report.money.withdrawals, report.money.anticipations]) {
      expect(figures.asked, summary).toBeGreaterThan(0);
      expect(figures.lost, summary).toBe(0);
      expect(figures.duplicated, summary).toBe(0);
    }
    expect(report.money.splitCharges, summary).toBeGreaterThan(0);
    expect(report.money.walletsBelowZero, summary).toBe(0);
    // `vigia ledger verify` on the phase's database: no centavo created or lost.
    expect(report.ledger, summary).toBe('passed');
    expect(report.faults.map((fault) => fault.kind).sort(), summary).toEqual([...phase.faults].sort());
  }, 900_000);
});
