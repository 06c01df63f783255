import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startAppWithMerchant } from '../helpers/app.js';
import { chargeBody, createFraudSession, createToken, liftRateLimits, postCharge } from '../helpers/charges.js';

describe('sqlite cost', () => {
  it('times each statement of a charge', async () => {
    const { app, merchant } = await startAppWithMerchant('sqlite');
    await liftRateLimits(app, merchant);
    const log: { text: string; params: unknown[] }[] = [];
    const proto = (SQLite as any).prototype;
    const prepare = proto.prepare;
    let recording = false;
    proto.prepare = function (text: string) {
      const statement = prepare.call(this, text);
      for (const method of ['run', 'all', 'get']) {
        const original = statement[method].bind(statement);
        statement[method] = (...params: unknown[]) => { if (recording) log.push({ text, params: params[0] as unknown[] ?? [] }); return original(...params); };
      }
      return statement;
    };
    for (let i = 0; i < 120; i++) {
      const token = await createToken(app, merchant);
      const session = await createFraudSession(app, merchant);
      recording = i === 119;
      const res = await postCharge(app, merchant, chargeBody(token, session, { customer: { name: `Cliente ${i}`, email: `c${i}@example.com`, document: '52998224725' } }));
      recording = false;
      expect(res.statusCode, res.body).toBe(201);
    }
    proto.prepare = prepare;
    const file = app.config.databaseUrl.slice('file:'.length);
    const raw = new SQLite(file);
    raw.pragma('journal_mode = WAL');
    const measure = (label: string) => {
      for (const { text, params } of log) {
        if (/^(release|savepoint|begin|commit)/i.test(text)) continue;
        const statement = raw.prepare(text);
        const n = 200;
        let total = 0;
        for (let i = 0; i < n; i++) {
          raw.exec('begin');
          const t0 = process.hrtime.bigint();
          const fresh = /^insert into "(charges|events)"/.test(text) ? params.map((v, k) => (k === 0 || (text.startsWith('insert into "charges"') && (k === 12 || k === 20)) ? crypto.randomUUID() : v)) : params;
          try { statement.reader ? statement.all(fresh) : statement.run(fresh); } catch (error) { raw.exec('rollback'); console.log('ERR', String(error).slice(0, 80), text.slice(0, 60)); break; }
          total += Number(process.hrtime.bigint() - t0);
          raw.exec('rollback');
        }
        console.log(label, (total / n / 1e6).toFixed(3), 'ms |', text.replace(/\s+/g, ' ').slice(0, 80));
      }
    };
    measure('with trigger');
    const triggers = raw.prepare(`select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'charges'`).all() as { name: string; sql: string }[];
    console.log('triggers', triggers.map((t) => t.name).join(', '));
    for (const trigger of triggers) raw.exec(`drop trigger ${trigger.name}`);
    measure('no trigger  ');
    raw.close();
  }, 300_000);
});
