import { Writable } from 'node:stream';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import {
  CARDS,
  chargeBody,
  createFraudSession,
  liftRateLimits,
  postCharge,
  postToken,
} from '../../helpers/charges.js';

const PAN = CARDS.amex;
const CVV = '8642';

/** Every string or number anywhere inside a JSON value. */
function leaves(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leaves);
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => [key, ...leaves(item)]);
}

/** Whether a text (a response or a log line) carries the card number, in any spacing, or the CVV as a value. */
function leaks(text: string): boolean {
  const digits = text.replace(/[\s-]/g, '');
  if (digits.includes(PAN)) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.includes(CVV);
  }
  return leaves(parsed).some((leaf) => leaf === CVV || leaf.includes(`"${CVV}"`) || leaf.includes(`:${CVV}`));
}

test('the leak detector finds what it looks for', () => {
  expect(leaks(JSON.stringify({ req: { body: { card: { number: PAN, cvv: CVV } } } }))).toBe(true);
  expect(leaks(JSON.stringify({ msg: `card ${PAN.slice(0, 4)} ${PAN.slice(4)}` }))).toBe(true);
  expect(leaks(JSON.stringify({ body: `{"cvv":"${CVV}"}` }))).toBe(true);
  expect(leaks('not json 8642')).toBe(true);
  expect(leaks(JSON.stringify({ card: { brand: 'amex', last4: '0005' }, responseTime: 8.642 }))).toBe(false);
});

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const lines: string[] = [];
  const responses: string[] = [];
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    ({ app, merchant } = await startAppWithMerchant(dialect, {
      clock: clock.now,
      logStream,
      config: { logLevel: 'info' },
    }));
    await liftRateLimits(app, merchant);
  });

  test('no response and no log line carries the card number or the CVV, whatever happens', async () => {
    const card = { number: PAN.replace(/(\d{4})(\d{6})(\d{5})/, '$1 $2 $3'), cvv: CVV };
    const keep = <T extends { body: string }>(response: T): T => {
      responses.push(response.body);
      return response;
    };
    // Tokenized, retried, refused for every reason a card can be refused.
    const token = keep(await postToken(app, merchant, card, { 'idempotency-key': 'secrecy-1' }));
    expect(token.statusCode).toBe(201);
    keep(await postToken(app, merchant, card, { 'idempotency-key': 'secrecy-1' }));
    keep(await postToken(app, merchant, { ...card, holder_name: 'X' }, { 'idempotency-key': 'secrecy-1' }));
    keep(await postToken(app, merchant, { ...card, cvv: '864' }));
    keep(await postToken(app, merchant, { ...card, number: `${PAN.slice(0, -1)}9` }));
    keep(await postToken(app, merchant, { ...card, exp_year: 2020 }));
    keep(
      await app.inject({
        method: 'POST',
        url: '/v1/tokens',
        headers: { ...merchant.public, 'content-type': 'application/json' },
        payload: `{"card":{"number":"${PAN}","cvv":"${CVV}"`,
      }),
    );
    keep(
      await app.inject({
        method: 'POST',
        url: '/v1/tokens',
        headers: { ...merchant.public, 'content-type': 'text/plain' },
        payload: `${PAN} ${CVV}`,
      }),
    );
    keep(
      await app.inject({
        method: 'POST',
        url: '/v1/tokens',
        headers: merchant.public,
        payload: { card: { number: Number(PAN), cvv: Number(CVV) } },
      }),
    );
    // Charged, listed, read, refunded.
    const tokenId = token.json().data.id;
    const charge = keep(
      await postCharge(app, merchant, chargeBody(tokenId, await createFraudSession(app, merchant))),
    );
    expect(charge.statusCode).toBe(201);
    keep(await postCharge(app, merchant, chargeBody(tokenId, null)));
    const id = charge.json().data.id;
    keep(await app.inject({ method: 'GET', url: '/v1/charges', headers: merchant.secret }));
    keep(await app.inject({ method: 'GET', url: `/v1/charges/${id}`, headers: merchant.secret }));
    keep(await app.inject({ method: 'POST', url: `/v1/charges/${id}/refund`, headers: merchant.secret }));

    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter(leaks)).toEqual([]);
    expect(responses.filter(leaks)).toEqual([]);
  });

  test('nor does any stored row or event', async () => {
    const tables = ['card_tokens', 'charges', 'events', 'idempotency_keys'] as const;
    for (const table of tables) {
      const rows = await app.store.db.selectFrom(table).selectAll().execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((row) => JSON.stringify(row)).filter(leaks)).toEqual([]);
    }
  });
});
