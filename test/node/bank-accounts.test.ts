import { beforeAll, describe, expect, test } from 'vitest';
import { type Vigia, VigiaApiError } from '../../src/node/src/index.js';
import type { VigiaApp } from '../../src/server/app.js';
import { DIALECTS, type TestMerchant } from '../helpers/app.js';
import { newCnpj, post, submerchantBody } from '../helpers/submerchants.js';
import { clientFor, startListeningService } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let vigia: Vigia;

  beforeAll(async () => {
    const service = await startListeningService(dialect);
    app = service.app;
    merchant = service.merchant;
    vigia = clientFor(merchant, service.baseUrl);
  });

  test('banks: a page by COMPE code, a search, one bank by COMPE or ISPB', async () => {
    const page = await vigia.banks.list({ limit: 5 });
    expect(page.data.map((bank) => bank.compe)).toEqual([...page.data.map((bank) => bank.compe)].sort());
    expect((await vigia.banks.list({ search: 'nu pagamentos' })).data.map((bank) => bank.compe)).toContain(
      '260',
    );
    expect(await vigia.banks.get('00000000')).toEqual(await vigia.banks.get('001'));
    await expect(vigia.banks.get('999')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  test("bank accounts: a submerchant's and your own, default, test-mode verification, typed refusals", async () => {
    const body = submerchantBody();
    const submerchant = await post(app, merchant, '/v1/submerchants', body);
    const accounts = vigia.bankAccounts.forSubmerchant(submerchant.id);
    const params = {
      holder_name: 'Loja do Zé',
      holder_document: body.tax_id as string,
      bank: '260',
      branch: '1',
      account: '12345678',
      account_digit: '9',
      type: 'payment' as const,
      pix_key: '+5511987654321',
    };
    const first = await accounts.create(params);
    const second = await accounts.create({ ...params, account: '87654321' });
    expect(first).toMatchObject({ status: 'pending_verification', default: true, account: '12345678' });
    expect((await accounts.setDefault(second.id)).default).toBe(true);
    expect((await accounts.get(first.id)).default).toBe(false);
    expect((await vigia.bankAccounts.verifyInTestMode(second.id)).status).toBe('verified');
    const ids: string[] = [];
    for await (const account of accounts.list()) ids.push(account.id);
    expect(ids).toEqual([second.id, first.id]);
    expect(await accounts.delete(first.id)).toEqual({ id: first.id, deleted: true });

    const refusal = await vigia.bankAccounts
      .create({ ...params, holder_document: newCnpj() })
      .catch((e) => e);
    expect(refusal).toBeInstanceOf(VigiaApiError);
    expect(refusal).toMatchObject({ status: 422, code: 'MERCHANT_DOCUMENT_MISSING' });
  });
});
