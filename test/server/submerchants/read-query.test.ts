import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { readSubmerchant } from '../../../src/server/submerchants/read-query.js';
import { loadStatusHistories } from '../../../src/server/submerchants/status-history.js';
import { createTestMerchant, DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import {
  createBusyMerchant,
  documentBody,
  post,
  type SeededSubmerchant,
  seedSubmerchant,
  submerchantBody,
} from '../../helpers/submerchants.js';

// GET /v1/submerchants/:id reads everything in one statement per dialect (nested JSON). It must read exactly the
// rows the five separate queries read: same columns, same types (numbers stay numbers, nulls stay null), same
// order, replaced documents left out, every status history.

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let seeded: SeededSubmerchant;

  /** The read as it was: one query per table. */
  async function separateQueries(id: string) {
    const db = app.store.db;
    const attached = (
      table: 'submerchant_representatives' | 'submerchant_addresses' | 'submerchant_documents',
    ) =>
      db.selectFrom(table).selectAll().where('submerchant_id', '=', id).orderBy('created_at').orderBy('id');
    return {
      row: await db.selectFrom('submerchants').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      representatives: await attached('submerchant_representatives').execute(),
      addresses: await attached('submerchant_addresses').execute(),
      documents: await attached('submerchant_documents').where('replaced_at', 'is', null).execute(),
      histories: await loadStatusHistories(db, id),
    };
  }

  beforeAll(async () => {
    ({ app } = await startAppWithMerchant(dialect));
    merchant = await createBusyMerchant(app, 'Marketplace');
    seeded = await seedSubmerchant(app, merchant);
    // Two documents replaced by a second upload to their slot: the read shows the new ones only.
    await post(app, merchant, `/v1/submerchants/${seeded.id}/documents`, documentBody('social_contract'));
    await post(
      app,
      merchant,
      `/v1/submerchants/${seeded.id}/documents`,
      documentBody('partner_front_id', { legal_representative_id: seeded.representativeIds[1] }),
    );
    const submitted = await app.inject({
      method: 'POST',
      url: `/v1/submerchants/${seeded.id}/submit-for-review`,
      headers: merchant.secret,
    });
    expect(submitted.statusCode).toBe(200);
  }, 60_000);

  test('one statement reads what the separate queries read: 3 representatives, 12 current documents, 2 addresses', async () => {
    const read = await readSubmerchant(app.store.db, seeded.id, { merchantId: merchant.id });
    const expected = await separateQueries(seeded.id);
    expect(read).toEqual(expected);
    expect(read!.representatives).toHaveLength(3);
    expect(read!.addresses).toHaveLength(2);
    expect(read!.documents).toHaveLength(12);
    // Fourteen uploads, two of them replaced; every document and the submerchant have a history.
    const all = await app.store.db
      .selectFrom('submerchant_documents')
      .select('id')
      .where('submerchant_id', '=', seeded.id)
      .execute();
    expect(all).toHaveLength(14);
    expect([...read!.histories.keys()].sort()).toEqual(
      [seeded.id, ...all.map((document) => document.id)].sort(),
    );
    expect(read!.histories.get(seeded.id)!.map((entry) => entry.to)).toEqual(['pending', 'pending_review']);
  });

  test('a submerchant with nothing attached reads empty lists, not nulls', async () => {
    const bare = await post(app, merchant, '/v1/submerchants', submerchantBody());
    const read = await readSubmerchant(app.store.db, bare.id, { operator: true });
    expect(read).toEqual(await separateQueries(bare.id));
    expect(read).toMatchObject({ representatives: [], addresses: [], documents: [] });
  });

  test("another merchant's submerchant is not read; an operator reads any", async () => {
    const other = await createTestMerchant(app, { name: 'Other' });
    expect(await readSubmerchant(app.store.db, seeded.id, { merchantId: other.id })).toBeNull();
    expect((await readSubmerchant(app.store.db, seeded.id, { operator: true }))?.row.id).toBe(seeded.id);
    const response = await app.inject({
      method: 'GET',
      url: `/v1/submerchants/${seeded.id}`,
      headers: other.secret,
    });
    expect(response.statusCode).toBe(404);
  });
});
