import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
} from '../../helpers/app.js';
import type { TestMerchant } from '../../helpers/merchants.js';
import { createBusyMerchant, newCnpj, newCpf, post, submerchantBody } from '../../helpers/submerchants.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
type Json = any;

/** A valid account body held by `document` at Itaú (341, a PIX participant). */
const accountBody = (document: string, overrides: Record<string, unknown> = {}) => ({
  holder_name: 'Loja do Zé Comércio LTDA',
  holder_document: document,
  bank: '341',
  branch: '0001',
  account: String(10_000 + Math.floor(Math.random() * 89_999_999)),
  account_digit: '7',
  type: 'checking',
  ...overrides,
});

describe.each(DIALECTS)('bank accounts on %s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;
  let operator: { authorization: string };
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    app = await startApp(await freshDatabaseUrl(dialect), { logStream, config: { logLevel: 'info' } });
    shop = await createBusyMerchant(app, 'Marketplace');
    operator = await createTestOperator(app);
  });

  const call = (
    method: string,
    url: string,
    payload?: object,
    headers: Record<string, string> = shop.secret,
  ) => app.inject({ method: method as 'GET', url, payload, headers });

  async function newSubmerchant(merchant: TestMerchant = shop): Promise<{ id: string; taxId: string }> {
    const body = submerchantBody();
    const created = await post(app, merchant, '/v1/submerchants', body);
    return { id: created.id, taxId: body.tax_id as string };
  }

  async function createAccount(path: string, body: object, headers = shop.secret): Promise<Json> {
    const response = await call('POST', path, body, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  it("registers a submerchant's account, pending verification, the first one its default, shown whole", async () => {
    const sub = await newSubmerchant();
    const body = accountBody(sub.taxId, { branch_digit: 'x', pix_key: 'Financeiro@LojaDoZe.com.br' });
    const first = await createAccount(`/v1/submerchants/${sub.id}/bank-accounts`, body);
    expect(first).toMatchObject({
      owner: { type: 'submerchant', id: sub.id },
      holder_name: body.holder_name,
      holder_document: sub.taxId,
      bank: '341',
      branch: '0001',
      branch_digit: 'X',
      account: body.account,
      account_digit: '7',
      type: 'checking',
      pix_key: 'financeiro@lojadoze.com.br',
      status: 'pending_verification',
      rejection_reason: null,
      default: true,
    });
    const second = await createAccount(
      `/v1/submerchants/${sub.id}/bank-accounts`,
      accountBody(sub.taxId, { bank: '260', type: 'payment' }),
    );
    expect(second.default).toBe(false);

    const list = (await call('GET', `/v1/submerchants/${sub.id}/bank-accounts`)).json();
    expect(list.pagination).toMatchObject({ total: 2, totalPages: 1 });
    expect(list.data.map((account: Json) => account.id)).toEqual([second.id, first.id]);
    const read = await call('GET', `/v1/submerchants/${sub.id}/bank-accounts/${first.id}`);
    expect(read.json().data).toEqual(first);
    // The account number is the owner's to see, never the log's.
    expect(logLines.join('')).not.toContain(body.account);
  });

  it('refuses bad input of every field with a 400 naming it, creating nothing', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const bad: [string, unknown][] = [
      ['holder_name', ' '],
      ['holder_name', 'x'.repeat(101)],
      ['holder_name', 42],
      ['holder_document', '123'],
      ['holder_document', '11111111111'],
      ['holder_document', `${sub.taxId.slice(0, -1)}${(Number(sub.taxId.at(-1)) + 1) % 10}`],
      ['holder_document', '12.345.678/0001-90'],
      ['bank', '34'],
      ['bank', 'itau'],
      ['branch', '12345'],
      ['branch', ''],
      ['branch', '12a'],
      ['branch_digit', '12'],
      ['branch_digit', 'Y'],
      ['account', '1234567890123'],
      ['account', '0000'],
      ['account', '12-3'],
      ['account_digit', ''],
      ['account_digit', '123'],
      ['account_digit', 'A'],
      ['type', 'investment'],
      ['pix_key', 'not a key'],
      ['pix_key', '11987654321x'],
      ['pix_key', '+1 555 0100'],
      ['pix_key', '123e4567-e89b-12d3-a456-426614174000'],
      ['pix_key', `${'a'.repeat(70)}@example.com`],
      ['color', 'blue'],
    ];
    for (const [field, value] of bad) {
      const response = await call('POST', path, { ...accountBody(sub.taxId), [field]: value });
      expect(response.statusCode, `${field}=${value}`).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details.map((detail: Json) => detail.field)).toContain(field);
    }
    for (const field of [
      'holder_name',
      'holder_document',
      'bank',
      'branch',
      'account',
      'account_digit',
      'type',
    ]) {
      const { [field]: _left, ...body } = accountBody(sub.taxId) as Record<string, unknown>;
      const response = await call('POST', path, body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().error.details).toContainEqual({ field, message: `${field} is required.` });
    }
    expect((await call('GET', path)).json().pagination.total).toBe(0);
  });

  it('accepts every kind of PIX key', async () => {
    const sub = await newSubmerchant();
    const keys = [
      newCpf(),
      newCnpj(),
      'pix@example.com.br',
      '+5511987654321',
      'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D',
    ];
    for (const pix_key of keys) {
      const created = await createAccount(
        `/v1/submerchants/${sub.id}/bank-accounts`,
        accountBody(sub.taxId, { pix_key }),
      );
      expect(created.pix_key).toBe(pix_key.includes('-') ? pix_key.toLowerCase() : pix_key);
    }
  });

  it('refuses the business rules with their own 422 codes, creating nothing', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const refusals: [object, string, string?][] = [
      [accountBody(sub.taxId, { bank: '999' }), 'BANK_NOT_FOUND', 'bank'],
      [accountBody(newCnpj()), 'HOLDER_DOCUMENT_MISMATCH', 'holder_document'],
      [accountBody(newCpf()), 'HOLDER_DOCUMENT_MISMATCH', 'holder_document'],
    ];
    const notPix = (await call('GET', '/v1/banks?pix_participant=false&limit=1')).json().data[0];
    refusals.push([
      accountBody(sub.taxId, { bank: notPix.compe, pix_key: 'a@b.com' }),
      'PIX_KEY_BANK_NOT_PARTICIPANT',
      'pix_key',
    ]);
    for (const [body, code, field] of refusals) {
      const response = await call('POST', path, body);
      expect(response.statusCode, code).toBe(422);
      expect(response.json().error.code).toBe(code);
      if (field) expect(response.json().error.details[0].field).toBe(field);
    }
    expect((await call('GET', path)).json().pagination.total).toBe(0);

    const body = accountBody(sub.taxId);
    await createAccount(path, body);
    const again = await call('POST', path, { ...body, holder_name: 'Another spelling' });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('BANK_ACCOUNT_DUPLICATE');
    expect((await call('GET', path)).json().pagination.total).toBe(1);
  });

  it("answers 404 for another merchant's submerchant and accounts, whatever the route", async () => {
    const sub = await newSubmerchant();
    const account = await createAccount(`/v1/submerchants/${sub.id}/bank-accounts`, accountBody(sub.taxId));
    const rival = await createTestMerchant(app, { name: 'Rival' });
    const base = `/v1/submerchants/${sub.id}/bank-accounts`;
    const attempts: [string, string, object?][] = [
      ['GET', base],
      ['POST', base, accountBody(sub.taxId)],
      ['GET', `${base}/${account.id}`],
      ['DELETE', `${base}/${account.id}`],
      ['POST', `${base}/${account.id}/default`],
      ['POST', `/v1/test/bank-accounts/${account.id}/verify`],
      ['GET', `/v1/account/bank-accounts/${account.id}`],
    ];
    for (const [method, url, body] of attempts) {
      const response = await call(method, url, body, rival.secret);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
    // Under another submerchant of the same merchant, the account is not found either.
    const other = await newSubmerchant();
    expect((await call('GET', `/v1/submerchants/${other.id}/bank-accounts/${account.id}`)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `${base}/${account.id}`)).json().data.status).toBe('pending_verification');
  });

  it("the merchant's own accounts need its CPF/CNPJ on record, set once by itself or by the operator", async () => {
    const merchant = await createTestMerchant(app, { name: 'Own accounts' });
    const document = newCnpj();
    const path = '/v1/account/bank-accounts';
    const missing = await call('POST', path, accountBody(document), merchant.secret);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.code).toBe('MERCHANT_DOCUMENT_MISSING');

    const bad = await call('PATCH', '/v1/account', { document: '12345678901' }, merchant.secret);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('document');
    const set = await call('PATCH', '/v1/account', { document }, merchant.secret);
    expect(set.json().data.document).toBe(document);
    const change = await call('PATCH', '/v1/account', { document: newCnpj() }, merchant.secret);
    expect(change.statusCode).toBe(422);
    expect(change.json().error.code).toBe('MERCHANT_DOCUMENT_ALREADY_SET');

    const mismatch = await call('POST', path, accountBody(newCnpj()), merchant.secret);
    expect(mismatch.json().error.code).toBe('HOLDER_DOCUMENT_MISMATCH');
    const own = await createAccount(path, accountBody(document), merchant.secret);
    expect(own).toMatchObject({ owner: { type: 'merchant', id: merchant.id }, default: true });
    expect((await call('GET', path, undefined, merchant.secret)).json().data).toEqual([own]);

    const newDocument = newCpf();
    const byOperator = await call(
      'PATCH',
      `/v1/operator/merchants/${merchant.id}`,
      { document: newDocument },
      operator,
    );
    expect(byOperator.json().data.document).toBe(newDocument);
    const afterChange = await call('POST', path, accountBody(document), merchant.secret);
    expect(afterChange.json().error.code).toBe('HOLDER_DOCUMENT_MISMATCH');
  });

  it('the operator verifies and rejects from its queue, each once, with events', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const toVerify = await createAccount(path, accountBody(sub.taxId));
    const toReject = await createAccount(path, accountBody(sub.taxId));

    const queue = (
      await call(
        'GET',
        '/v1/operator/bank-accounts?status=pending_verification&limit=100',
        undefined,
        operator,
      )
    ).json();
    const queued = queue.data.map((account: Json) => account.id);
    expect(queued).toEqual(expect.arrayContaining([toVerify.id, toReject.id]));
    expect(queue.data.every((account: Json) => account.status === 'pending_verification')).toBe(true);
    expect((await call('GET', '/v1/operator/bank-accounts', undefined, shop.secret)).statusCode).toBe(403);

    const verified = await call(
      'POST',
      `/v1/operator/bank-accounts/${toVerify.id}/verify`,
      undefined,
      operator,
    );
    expect(verified.json().data).toMatchObject({ status: 'verified', default: true });
    expect(verified.json().data.reviewed_at).toBeTruthy();
    const noReason = await call('POST', `/v1/operator/bank-accounts/${toReject.id}/reject`, {}, operator);
    expect(noReason.statusCode).toBe(400);
    const rejected = await call(
      'POST',
      `/v1/operator/bank-accounts/${toReject.id}/reject`,
      { reason: 'The statement shows another holder.' },
      operator,
    );
    expect(rejected.json().data).toMatchObject({
      status: 'rejected',
      rejection_reason: 'The statement shows another holder.',
    });

    for (const [id, action] of [
      [toVerify.id, 'verify'],
      [toVerify.id, 'reject'],
      [toReject.id, 'verify'],
    ]) {
      const again = await call(
        'POST',
        `/v1/operator/bank-accounts/${id}/${action}`,
        { reason: 'again' },
        operator,
      );
      expect(again.statusCode, `${action} ${id}`).toBe(409);
      expect(again.json().error.code).toBe('INVALID_STATE');
    }
    const stillQueued = (
      await call(
        'GET',
        '/v1/operator/bank-accounts?status=pending_verification&limit=100',
        undefined,
        operator,
      )
    ).json();
    expect(stillQueued.data.map((account: Json) => account.id)).not.toContain(toVerify.id);
    expect(
      (await call('GET', `/v1/operator/bank-accounts/${newCpf()}/verify`, undefined, operator)).statusCode,
    ).toBe(404);

    const events = (await call('GET', '/v1/events?limit=100')).json().data;
    const about = (id: string) =>
      events
        .filter((event: Json) => event.data.bank_account?.id === id)
        .map((event: Json) => event.type)
        .reverse();
    expect(about(toVerify.id)).toEqual(['bank_account.created', 'bank_account.verified']);
    expect(about(toReject.id)).toEqual(['bank_account.created', 'bank_account.rejected']);
    expect(
      events.find((event: Json) => event.type === 'bank_account.rejected').data.bank_account,
    ).toMatchObject({
      id: toReject.id,
      rejection_reason: 'The statement shows another holder.',
    });
  });

  it('test mode: the merchant verifies its own account; a live key is refused', async () => {
    const sub = await newSubmerchant();
    const account = await createAccount(`/v1/submerchants/${sub.id}/bank-accounts`, accountBody(sub.taxId));
    const verified = await call('POST', `/v1/test/bank-accounts/${account.id}/verify`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data.status).toBe('verified');

    const live = await createTestMerchant(app, { name: 'Live', live: true });
    const liveSub = await newSubmerchant(live);
    const liveAccount = await createAccount(
      `/v1/submerchants/${liveSub.id}/bank-accounts`,
      accountBody(liveSub.taxId),
      live.secret,
    );
    const refused = await call(
      'POST',
      `/v1/test/bank-accounts/${liveAccount.id}/verify`,
      undefined,
      live.secret,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('TEST_MODE_ONLY');
  });

  it('moves the default, never to a rejected account; deleting removes an account from the API', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const first = await createAccount(path, accountBody(sub.taxId));
    const second = await createAccount(path, accountBody(sub.taxId));
    const moved = await call('POST', `${path}/${second.id}/default`);
    expect(moved.json().data.default).toBe(true);
    expect((await call('GET', `${path}/${first.id}`)).json().data.default).toBe(false);

    const rejectedOne = await createAccount(path, accountBody(sub.taxId));
    await call(
      'POST',
      `/v1/operator/bank-accounts/${rejectedOne.id}/reject`,
      { reason: 'Closed account.' },
      operator,
    );
    const refused = await call('POST', `${path}/${rejectedOne.id}/default`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('BANK_ACCOUNT_REJECTED');

    const deleted = await call('DELETE', `${path}/${second.id}`);
    expect(deleted.json().data).toEqual({ id: second.id, deleted: true });
    expect((await call('GET', `${path}/${second.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${path}/${second.id}`)).statusCode).toBe(404);
    const left = (await call('GET', path)).json().data;
    expect(left.map((account: Json) => account.id).sort()).toEqual([first.id, rejectedOne.id].sort());
    expect(left.some((account: Json) => account.default)).toBe(false);
    // The deleted account may be registered again.
    await createAccount(path, { ...accountBody(sub.taxId), account: second.account });
  });

  it('concurrent set-default calls leave exactly one default account', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const accounts: Json[] = [];
    for (let i = 0; i < 6; i++) accounts.push(await createAccount(path, accountBody(sub.taxId)));
    const answers = await Promise.all(
      [...accounts, ...accounts].map((account) => call('POST', `${path}/${account.id}/default`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const defaults = (await call('GET', `${path}?limit=100`))
      .json()
      .data.filter((account: Json) => account.default);
    expect(defaults).toHaveLength(1);
  });

  it('concurrent first accounts of one owner: exactly one becomes the default', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', path, accountBody(sub.taxId))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(answers.filter((answer) => answer.json().data.default)).toHaveLength(1);
  });

  it('an Idempotency-Key replays the first creation; another body under it is refused', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const body = accountBody(sub.taxId);
    const headers = { ...shop.secret, 'idempotency-key': `bank-account-${sub.id}` };
    const first = await call('POST', path, body, headers);
    const replay = await call('POST', path, body, headers);
    expect(first.statusCode).toBe(201);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(first.json().data.id);
    const other = await call('POST', path, accountBody(sub.taxId), headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await call('GET', path)).json().pagination.total).toBe(1);
  });

  it('lists follow the conventions: status, search, pages, bad parameters 400', async () => {
    const sub = await newSubmerchant();
    const path = `/v1/submerchants/${sub.id}/bank-accounts`;
    const named = await createAccount(path, accountBody(sub.taxId, { holder_name: 'Ateliê Çedilha' }));
    const verifiedOne = await createAccount(path, accountBody(sub.taxId));
    await call('POST', `/v1/test/bank-accounts/${verifiedOne.id}/verify`);
    expect((await call('GET', `${path}?status=verified`)).json().data.map((a: Json) => a.id)).toEqual([
      verifiedOne.id,
    ]);
    expect(
      (await call('GET', `${path}?search=${encodeURIComponent('ÇEDILHA')}`))
        .json()
        .data.map((a: Json) => a.id),
    ).toEqual([named.id]);
    expect((await call('GET', `${path}?limit=1&page=2`)).json()).toMatchObject({
      data: [{ id: named.id }],
      pagination: { page: 2, limit: 1, total: 2, totalPages: 2 },
    });
    for (const query of ['status=open', 'limit=0', 'limit=101', 'page=0', 'date_from=2026-02-30']) {
      expect((await call('GET', `${path}?${query}`)).statusCode, query).toBe(400);
    }
  });
});
