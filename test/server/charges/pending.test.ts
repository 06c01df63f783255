import { getBoletoInfo, isValidBoleto } from '@brazilian-utils/brazilian-utils';
import { parsePix } from 'pix-utils';
import { parseEmv } from 'pix-utils/dist/main/emvHandler.js';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { expireDueCharges } from '../../../src/server/charges/pending.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import {
  createFraudSession,
  liftRateLimits,
  postCharge,
  quickCharge,
  VALID_CPF,
} from '../../helpers/charges.js';

const customer = { name: 'João da Silva', email: 'joao@example.com', document: VALID_CPF };
const pixBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 4990,
  payment_method: 'pix',
  customer,
  ...overrides,
});
const boletoBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 15_000,
  payment_method: 'boleto',
  boleto: { due_date: '2026-11-25', instructions: 'Não receber após o vencimento.' },
  customer,
  ...overrides,
});

/** Every PIX code the service answers, read by an independent parser: CRC, dynamic location with the txid, amount. */
function expectValidPix(pix: { txid: string; br_code: string; qr_code_svg: string }, amount: number) {
  const parsed = parsePix(pix.br_code);
  expect(parsed).toMatchObject({ type: 'DYNAMIC', merchantName: 'LOJA DO JOAO', countryCode: 'BR' });
  expect((parsed as { url: string }).url).toBe(`psp.vigia.test/pix/v2/cob/${pix.txid}`);
  expect(pix.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
  const emv = parseEmv({ emvCode: pix.br_code });
  if (!emv.isValid) throw new Error('not an EMV code');
  expect(emv.getTag(54)).toBe((amount / 100).toFixed(2));
  expect(pix.qr_code_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
}

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  const pay = (id: string, who: TestMerchant = merchant) =>
    app.inject({ method: 'POST', url: `/v1/test/charges/${id}/pay`, headers: who.secret });
  const read = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/v1/charges/${id}`, headers: merchant.secret })).json().data;
  const events = async (type: string) =>
    (await app.inject({ method: 'GET', url: `/v1/events?limit=100`, headers: merchant.secret }))
      .json()
      .data.filter((event: { type: string }) => event.type === type);
  const latePayments = (chargeId: string) =>
    app.store.db.selectFrom('charge_late_payments').selectAll().where('charge_id', '=', chargeId).execute();

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }, (built) =>
      createTestMerchant(built, { name: 'Loja do João' }),
    ));
    await liftRateLimits(app, merchant);
  });

  test('a PIX charge is pending with a dynamic BR Code and its QR code, read back alike', async () => {
    const response = await postCharge(app, merchant, pixBody({ pix: { expires_in: 600 } }));
    expect(response.statusCode).toBe(201);
    const charge = response.json().data;
    expect(charge).toMatchObject({ status: 'pending', payment_method: 'pix', card: null, boleto: null });
    expect(charge.pix.expires_at).toBe('2026-11-21T12:10:00.000Z');
    expectValidPix(charge.pix, 4990);
    expect(await read(charge.id)).toEqual(charge);
  });

  test('PIX expires in 3600 s by default; expires_in out of bounds is a 400', async () => {
    const charge = (await postCharge(app, merchant, pixBody())).json().data;
    expect(Date.parse(charge.pix.expires_at) - Date.parse(charge.created_at)).toBe(3_600_000);
    for (const expiresIn of [59, 604_801]) {
      const refused = await postCharge(app, merchant, pixBody({ pix: { expires_in: expiresIn } }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  test('a boleto charge is pending with numbers an independent validator accepts, and a printable page', async () => {
    const response = await postCharge(app, merchant, boletoBody());
    expect(response.statusCode).toBe(201);
    const charge = response.json().data;
    expect(charge).toMatchObject({ status: 'pending', payment_method: 'boleto', card: null, pix: null });
    const { boleto } = charge;
    expect(boleto.due_date).toBe('2026-11-25');
    expect(boleto.our_number).toMatch(/^\d{17}$/);
    expect(isValidBoleto(boleto.digitable_line)).toBe(true);
    const info = getBoletoInfo(boleto.digitable_line);
    expect(info?.amount).toBe(15_000);
    expect(info?.expirationDate?.toISOString().slice(0, 10)).toBe('2026-11-25');
    expect(boleto.barcode).toMatch(/^\d{44}$/);
    expect(boleto.barcode.slice(0, 4)).toBe(boleto.digitable_line.slice(0, 4));
    expect(boleto.barcode.slice(5, 19)).toBe(boleto.digitable_line.slice(33));

    // The page needs no key; its address is a random token.
    const url = new URL(boleto.url);
    expect(url.pathname).toMatch(/^\/v1\/boletos\/[A-Za-z0-9_-]{32}$/);
    const page = await app.inject({ method: 'GET', url: url.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('@media print');
    expect(page.body).toContain('<svg');
    expect(page.body).toContain('R$ 150,00');
    expect(page.body).toContain('Loja do João');
    expect(page.body).toContain(boleto.digitable_line.slice(0, 5));
    const guessed = await app.inject({ method: 'GET', url: `/v1/boletos/${'A'.repeat(32)}` });
    expect(guessed.statusCode).toBe(404);
  });

  test('boleto refusals: no boleto object, a past or far due date, more than ten digits, installments', async () => {
    const cases = [
      [boletoBody({ boleto: undefined }), 'boleto'],
      [boletoBody({ boleto: { due_date: '2026-11-20' } }), 'boleto.due_date'],
      [boletoBody({ boleto: { due_date: '2027-06-01' } }), 'boleto.due_date'],
      [boletoBody({ amount: 10_000_000_000 }), 'amount'],
      [boletoBody({ installments: 3 }), 'installments'],
      [pixBody({ card_token: '6f1c5a43-5f4e-4a8e-9a57-0d6c3a1b2c3d' }), 'card_token'],
      [pixBody({ boleto: { due_date: '2026-11-25' } }), 'boleto'],
      [{ ...pixBody(), payment_method: 'credit_card' }, 'card_token'],
    ] as const;
    for (const [body, field] of cases) {
      const refused = await postCharge(app, merchant, body);
      expect(refused.statusCode, field).toBe(400);
      expect(refused.json().error.details[0].field).toBe(field);
    }
  });

  test('test mode pays a pending charge once: charge.paid; a second payment is refused and recorded', async () => {
    const charge = (await postCharge(app, merchant, pixBody())).json().data;
    const paid = await pay(charge.id);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data).toMatchObject({ id: charge.id, status: 'paid', pix: { txid: charge.pix.txid } });
    expect(
      (await events('charge.paid')).some((event: { data: { id: string } }) => event.data.id === charge.id),
    ).toBe(true);
    const again = await pay(charge.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVALID_STATE');
    expect(await latePayments(charge.id)).toMatchObject([{ amount: 4990, charge_status: 'paid' }]);
    expect((await read(charge.id)).status).toBe('paid');
  });

  test('the expiry job expires PIX at expires_at and boleto after the grace period; late payments are refused', async () => {
    const pix = (await postCharge(app, merchant, pixBody({ pix: { expires_in: 60 } }))).json().data;
    const boleto = (
      await postCharge(app, merchant, boletoBody({ boleto: { due_date: '2026-11-22' } }))
    ).json().data;
    clock.advance(59_000);
    await expireDueCharges(app.store.db, app.outbox, clock.now());
    expect((await read(pix.id)).status).toBe('pending');
    clock.advance(1_000);
    // Two instances running the job at once expire each charge once.
    await Promise.all([
      expireDueCharges(app.store.db, app.outbox, clock.now()),
      expireDueCharges(app.store.db, app.outbox, clock.now()),
    ]);
    expect((await read(pix.id)).status).toBe('expired');
    expect(
      (await events('charge.expired')).filter((e: { data: { id: string } }) => e.data.id === pix.id),
    ).toHaveLength(1);
    expect((await read(boleto.id)).status).toBe('pending');

    const late = await pay(pix.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('expired');
    expect(await latePayments(pix.id)).toMatchObject([{ amount: 4990, charge_status: 'expired' }]);

    // Due 2026-11-22, three days' grace: payable until 2026-11-26 00:00 in Brazil (03:00 UTC).
    clock.set('2026-11-26T02:59:59.000Z');
    expect((await pay(boleto.id)).statusCode).toBe(200);
    clock.set('2026-11-21T12:01:00.000Z');
  });

  test('a payment after expires_at, before the job ran, expires the charge and is refused', async () => {
    const pix = (await postCharge(app, merchant, pixBody({ pix: { expires_in: 60 } }))).json().data;
    clock.advance(61_000);
    const late = await pay(pix.id);
    expect(late.statusCode).toBe(409);
    expect((await read(pix.id)).status).toBe('expired');
    expect(await latePayments(pix.id)).toHaveLength(1);
  });

  test('paying a card charge is a 409; a live key is refused (403 TEST_MODE_ONLY); another merchant gets 404', async () => {
    const { response } = await quickCharge(app, merchant);
    expect((await pay(response.json().data.id)).statusCode).toBe(409);
    const pix = (await postCharge(app, merchant, pixBody())).json().data;
    const live = await createTestMerchant(app, { live: true });
    const refused = await pay(pix.id, live);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('TEST_MODE_ONLY');
    const other = await createTestMerchant(app);
    expect((await pay(pix.id, other)).statusCode).toBe(404);
    expect((await read(pix.id)).status).toBe('pending');
  });

  test('the list filters by payment_method and shows each charge with its PIX or boleto', async () => {
    await quickCharge(app, merchant);
    const list = async (method: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/v1/charges?payment_method=${method}&limit=100`,
          headers: merchant.secret,
        })
      ).json();
    const pix = await list('pix');
    expect(pix.data.length).toBeGreaterThan(0);
    for (const charge of pix.data) {
      expect(charge.payment_method).toBe('pix');
      if (charge.status !== 'failed') expectValidPix(charge.pix, charge.amount);
    }
    const boletos = await list('boleto');
    expect(boletos.data.every((charge: { boleto: unknown }) => charge.boleto !== null)).toBe(true);
    const cards = await list('credit_card');
    expect(cards.data.every((charge: { card: unknown; pix: unknown }) => charge.card && !charge.pix)).toBe(
      true,
    );
    const all = (
      await app.inject({ method: 'GET', url: '/v1/charges?limit=1', headers: merchant.secret })
    ).json();
    expect(pix.pagination.total + boletos.pagination.total + cards.pagination.total).toBe(
      all.pagination.total,
    );
    const wrong = await app.inject({
      method: 'GET',
      url: '/v1/charges?payment_method=cash',
      headers: merchant.secret,
    });
    expect(wrong.statusCode).toBe(400);
  });

  test('a declined fraud analysis fails the charge before anything is issued', async () => {
    const response = await postCharge(
      app,
      merchant,
      pixBody({ customer: { ...customer, email: 'declined@risk.test' } }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      status: 'failed',
      failure_code: 'fraud_declined',
      pix: null,
      fraud_analysis: { status: 'declined' },
    });
    expect(
      await app.store.db
        .selectFrom('charge_pix')
        .selectAll()
        .where('charge_id', '=', response.json().data.id)
        .execute(),
    ).toHaveLength(0);
  });

  test('a fraud session is consumed and analysed as for cards; card rules never fire without a card', async () => {
    const visitorId = 'pixvisitor00000000000000000000001';
    const reasons: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const sessionId = await createFraudSession(app, merchant, { visitorId });
      const charge = (await postCharge(app, merchant, pixBody({ fraud_session_id: sessionId }))).json().data;
      expect(charge.fraud_session_id).toBe(sessionId);
      expect(charge.fraud_analysis.status).not.toBe('not_analyzed');
      reasons.push(...charge.fraud_analysis.reasons);
      const reused = await postCharge(app, merchant, boletoBody({ fraud_session_id: sessionId }));
      expect(reused.json().error.code).toBe('FRAUD_SESSION_ALREADY_USED');
    }
    // The device's velocity counts these charges (the sixth follows five), the card rules find nothing to count.
    expect(reasons).toContain('DEVICE_VELOCITY');
    for (const cardRule of ['CARD_VELOCITY', 'VISITOR_MANY_CARDS', 'DEVICE_CARDS_ACROSS_MERCHANTS']) {
      expect(reasons).not.toContain(cardRule);
    }
  });

  test('a merchant that requires fraud analysis requires a session for PIX and boleto too', async () => {
    const strict = await createTestMerchant(app, { fraudAnalysisMandatory: true });
    for (const body of [pixBody(), boletoBody()]) {
      const refused = await postCharge(app, strict, body);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('FRAUD_SESSION_REQUIRED');
    }
  });

  test('Idempotency-Key replays the first PIX charge', async () => {
    const headers = { 'idempotency-key': `pix-${dialect}-1` };
    const first = await postCharge(app, merchant, pixBody(), headers);
    const second = await postCharge(app, merchant, pixBody(), headers);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    const other = await postCharge(app, merchant, pixBody({ amount: 1 }), headers);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
