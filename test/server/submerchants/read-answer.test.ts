import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { buildAnswer, keepAnswer } from '../../../src/server/submerchants/read-answer.js';
import { submerchantJson } from '../../../src/server/submerchants/read-json.js';
import { recordStatusChange } from '../../../src/server/submerchants/status-history.js';
import { createTestOperator, DIALECTS, type TestClock, type TestMerchant } from '../../helpers/app.js';
import {
  addressBody,
  type Client,
  client,
  documentBody,
  representativeBody,
  seedSubmerchant,
} from '../../helpers/submerchants.js';
import { presentedAnswer, startOnboarding } from './fixtures.js';

// GET /v1/submerchants/:id answers the answer stored with the submerchant (read-answer.ts, migration 0037) and
// builds it again only when a write or the clock made it stale. Every kind of write, a document expiring by the
// clock, a write racing a refill and a release that changes the answer's statement must each be seen by the next
// read, which must answer byte for byte what the presenters answer from the rows as they are.

describe.each(DIALECTS)('%s: GET /v1/submerchants/:id keeps its answer', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  let merchant: TestMerchant;
  let api: Client;
  let operator: Client;
  let id: string;
  let base: string;
  let documents: string[];
  let representatives: string[];
  let addresses: string[];

  beforeAll(async () => {
    ({ app, clock, merchant, api } = await startOnboarding(dialect));
    operator = client(app, await createTestOperator(app));
    const seeded = await seedSubmerchant(app, merchant, { representatives: 1, documents: 7, addresses: 1 });
    ({ id, documentIds: documents, representativeIds: representatives, addressIds: addresses } = seeded);
    base = `/v1/submerchants/${id}`;
  }, 60_000);

  const storedAnswer = () =>
    app.store.db
      .selectFrom('submerchant_answers')
      .selectAll()
      .where('submerchant_id', '=', id)
      .executeTakeFirstOrThrow();

  /** Reads it, holds the answer to the reference from its rows, and returns the answer's text. */
  async function read(): Promise<string> {
    const answer = await app.inject({ method: 'GET', url: base, headers: merchant.secret });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await presentedAnswer(app, id, merchant.id, clock.now()));
    return answer.body;
  }

  const ok = (result: { status: number; body: unknown }) => {
    expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
    return result.body as { data: { id: string } };
  };

  test('a read answers the stored answer, and stores it when there is none', async () => {
    await read();
    const kept = await storedAnswer();
    expect(kept.head).toContain(`"id":"${id}"`);
    // The next read sends the stored text: a marked copy of it is what it answers.
    await app.store.db
      .updateTable('submerchant_answers')
      .set({ head: kept.head!.replace('"trade_name":"', '"trade_name":"(stored) ') })
      .where('submerchant_id', '=', id)
      .execute();
    const answer = await app.inject({ method: 'GET', url: base, headers: merchant.secret });
    expect(answer.json().data.trade_name).toMatch(/^\(stored\) /);
    await app.store.db
      .updateTable('submerchant_answers')
      .set({ head: kept.head })
      .where('submerchant_id', '=', id)
      .execute();
  });

  test('an answer stored by another statement (an older release) is built again', async () => {
    await read();
    await app.store.db
      .updateTable('submerchant_answers')
      .set({ format: 'an older statement', head: '{"stale":true}' })
      .where('submerchant_id', '=', id)
      .execute();
    await read();
  });

  // Each write, in an order the lifecycle allows; the next read must show it (and so differ from the last).
  const writes: [string, () => Promise<unknown>][] = [
    ['edit the submerchant', async () => ok(await api.patch(base, { trade_name: 'Loja Renovada' }))],
    [
      'add a legal representative',
      async () => {
        const added = ok(
          await api.post(`${base}/legal-representatives`, representativeBody({ name: 'Nova Sócia' })),
        );
        representatives.push(added.data.id);
      },
    ],
    [
      'delete a legal representative',
      async () => ok(await api.delete(`${base}/legal-representatives/${representatives.pop()}`)),
    ],
    [
      'add an address',
      async () =>
        addresses.push(ok(await api.post(`${base}/addresses`, addressBody({ number: '77' }))).data.id),
    ],
    [
      'edit an address',
      async () => ok(await api.patch(`${base}/addresses/${addresses[1]}`, { number: '78' })),
    ],
    ['delete an address', async () => ok(await api.delete(`${base}/addresses/${addresses.pop()}`))],
    [
      'upload a document over a current one',
      async () =>
        ok(await api.post(`${base}/documents`, documentBody('cnpj_card', { notes: 'Segunda via' }))),
    ],
    ['submit for review', async () => ok(await api.post(`${base}/submit-for-review`))],
    [
      'approve a document',
      async () =>
        ok(await operator.post(`/v1/operator/submerchants/${id}/documents/${documents[0]}/approve`)),
    ],
    [
      'reject a document',
      async () =>
        ok(
          await operator.post(`/v1/operator/submerchants/${id}/documents/${documents[2]}/reject`, {
            reason: 'Ilegível',
          }),
        ),
    ],
    [
      'approve a legal representative',
      async () =>
        ok(
          await operator.post(
            `/v1/operator/submerchants/${id}/legal-representatives/${representatives[0]}/approve`,
          ),
        ),
    ],
    [
      'reject the submerchant',
      async () =>
        ok(await operator.post(`/v1/operator/submerchants/${id}/reject`, { reason: 'Contrato ilegível' })),
    ],
    ['request resubmission', async () => ok(await api.post(`${base}/request-resubmission`))],
    [
      'a status change alone (no writer can forget the answer: a trigger clears it)',
      () =>
        recordStatusChange(app.store.db, {
          submerchantId: id,
          subjectType: 'submerchant',
          subjectId: id,
          from: 'pending',
          to: 'pending',
          actor: { kind: 'operator', id: 'test' },
          reason: 'A note',
          now: clock.now(),
        }),
    ],
  ];
  test.each(writes)('%s: the next read shows it', async (_, write) => {
    const before = await read();
    clock.advance(1000);
    await write();
    expect(await read()).not.toBe(before);
  });

  test('a refill built before a write never stores over it', async () => {
    const now = clock.now();
    const built = (await buildAnswer(app.store.db, id, merchant.id, now))!;
    ok(await api.post(`${base}/addresses`, addressBody({ number: '500' })));
    await keepAnswer(app.store.db, id, merchant.id, built, submerchantJson(built), now);
    expect((await storedAnswer()).head).toBeNull();
    expect(await read()).toContain('"number":"500"');
    // Built over the version it read, a refill is kept.
    expect((await storedAnswer()).head).toContain('"number":"500"');
  });

  test('a document expiring by the clock changes the next read; a clock set back reads it valid again', async () => {
    const expiry = new Date(clock.now().getTime() + 86_400_000).toISOString();
    const renewed = ok(
      await api.post(`${base}/documents`, documentBody('social_contract', { expires_at: expiry })),
    );
    const status = (answer: string) =>
      JSON.parse(answer).data.documents.find((document: { id: string }) => document.id === renewed.data.id)
        .status;
    const before = clock.now().toISOString();
    expect(status(await read())).toBe('pending');
    expect(await storedAnswer()).toMatchObject({ stale_after: expiry, valid_from: null });
    clock.set(expiry);
    const expired = await read();
    expect(status(expired)).toBe('expired');
    expect(expired).toContain(`"document_id":"${renewed.data.id}"`);
    expect(await storedAnswer()).toMatchObject({ stale_after: null, valid_from: expiry });
    clock.set(before);
    expect(status(await read())).toBe('pending');
  });
});
