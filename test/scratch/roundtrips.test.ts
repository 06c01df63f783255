import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startAppWithMerchant } from '../helpers/app.js';
import { chargeBody, createFraudSession, createToken, liftRateLimits, postCharge } from '../helpers/charges.js';

describe.each(['postgres', 'sqlite'] as const)('%s', (dialect) => {
  it('counts statements of one charge', async () => {
    const { app, merchant } = await startAppWithMerchant(dialect);
    await liftRateLimits(app, merchant);
    const log: string[] = [];
    const original = pg.Client.prototype.query;
    (pg.Client.prototype as any).query = function (this: unknown, ...args: any[]) {
      const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
      log.push(String(text).slice(0, 140));
      return (original as any).apply(this, args);
    };
    for (let i = 0; i < 3; i++) {
      const token = await createToken(app, merchant);
      const session = await createFraudSession(app, merchant);
      log.length = 0;
      const res = await postCharge(app, merchant, chargeBody(token, session));
      expect(res.statusCode).toBe(201);
      console.log(dialect, log.length, '\n' + log.join('\n'));
    }
    (pg.Client.prototype as any).query = original;
  });
});
