import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startAppWithMerchant } from '../helpers/app.js';
import { chargeBody, createFraudSession, createToken, liftRateLimits, postCharge } from '../helpers/charges.js';

describe('explain', () => {
  it('times each statement of a charge', async () => {
    const { app, merchant } = await startAppWithMerchant('postgres');
    await liftRateLimits(app, merchant);
    const log: { text: string; values: unknown[] }[] = [];
    const original = pg.Client.prototype.query;
    for (let i = 0; i < 30; i++) {
      const token = await createToken(app, merchant);
      const session = await createFraudSession(app, merchant, { visitorId: 'a'.repeat(32) });
      if (i === 29) {
        (pg.Client.prototype as any).query = function (this: unknown, ...args: any[]) {
          if (typeof args[0] === 'string') log.push({ text: args[0], values: args[1] ?? [] });
          return (original as any).apply(this, args);
        };
      }
      const res = await postCharge(app, merchant, chargeBody(token, session));
      expect(res.statusCode).toBe(201);
    }
    (pg.Client.prototype as any).query = original;
    const client = await app.store.pgPool!.connect();
    for (const { text, values } of log) {
      if (/^(begin|commit)/i.test(text)) continue;
      const times: string[] = [];
      for (let round = 0; round < 5; round++) {
        await client.query('begin');
        await client.query(`set local plan_cache_mode = force_custom_plan`);
        const { rows } = await client.query(`explain (analyze, format json) ${text}`, values);
        await client.query('rollback');
        const plan = rows[0]['QUERY PLAN'][0];
        times.push(`${plan['Planning Time'].toFixed(3)}+${plan['Execution Time'].toFixed(3)}`);
      }
      console.log(times.join(' '), ' ms plan+exec |', text.slice(0, 90));
    }
    client.release();
  });
});
