import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DIALECTS, startAppWithMerchant } from '../../helpers/app.js';
import { capturedCharge, marketplace } from '../../helpers/money.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(repoRoot, 'src/server/cli.ts');

/** `vigia ledger verify` on the database: its exit code and what it printed. */
async function verify(databaseUrl: string) {
  try {
    const { stdout } = await run(tsx, [cli, 'ledger', 'verify'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      cwd: repoRoot,
    });
    return { code: 0, output: JSON.parse(stdout.trim()) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: JSON.parse(failed.stdout.trim()) };
  }
}

describe.each(DIALECTS)('%s: vigia ledger verify', { timeout: 120_000 }, (dialect) => {
  it('exits 0 on a consistent ledger, 1 naming the wallet whose balance drifted from its postings', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    const [seller] = await marketplace(app, merchant, 1);
    await capturedCharge(app, merchant, {
      amount: 12_345,
      installments: 4,
      split: [{ submerchant_id: seller, type: 'percentage', amount: 4000 }],
    });
    const databaseUrl = app.config.databaseUrl;
    expect(await verify(databaseUrl)).toEqual({ code: 0, output: { drifts: [] } });

    const wallet = await app.store.db
      .selectFrom('wallets')
      .select('id')
      .where('owner_id', '=', seller!)
      .executeTakeFirstOrThrow();
    // Someone edits a balance by hand: the postings no longer agree.
    await app.store.db
      .updateTable('wallets')
      .set((eb) => ({ waiting_funds: eb('waiting_funds', '+', 1) }))
      .where('id', '=', wallet.id)
      .execute();
    const drifted = await verify(databaseUrl);
    expect(drifted.code).toBe(1);
    expect(drifted.output.drifts).toEqual([
      {
        kind: 'wallet_balance',
        id: wallet.id,
        detail: expect.stringMatching(/^waiting_funds is \d+, its postings sum to \d+$/),
      },
    ]);
  });
});
