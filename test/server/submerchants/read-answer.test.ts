import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { AnswerCache } from '../../../src/server/submerchants/answer-cache.js';
import { answerCache, buildAnswer, keepAnswer } from '../../../src/server/submerchants/read-answer.js';
import { submerchantJson } from '../../../src/server/submerchants/read-json.js';
import { recordStatusChange } from '../../../src/server/submerchants/status-history.js';
import {
  createTestOperator,
  DIALECTS,
  startApp,
  type TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import {
  addressBody,
  type Client,
  client,
  createBusyMerchant,
  documentBody,
  representativeBody,
  seedSubmerchant,
} from '../../helpers/submerchants.js';
import { presentedAnswer, startOnboarding } from './fixtures.js';

// GET /v1/submerchants/:id answers the answer stored with the submerchant (read-answer.ts, migration 0037) and
// builds it again only when a write or the clock made it stale. Every kind of write, a document expiring by the
// clock, a write racing a refill and a release that changes the answer's statement must each be seen by the next
// read, which must answer byte for byte what the presenters answer from the rows as they are. Each app (instance)
// also keeps the bodies it sent (answer-cache.ts): `other` is a second instance on the same database, so every
// write made through `app` must be seen by `other`'s next read although it holds the answer from before.

describe.each(DIALECTS)('%s: GET /v1/submerchants/:id keeps its answer', (dialect) => {
  let app: VigiaApp;
  let other: VigiaApp;
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
    other = await startApp(app.config.databaseUrl, { clock: clock.now });
  }, 60_000);

  const storedAnswer = () =>
    app.store.db
      .selectFrom('submerchant_answers')
      .selectAll()
      .where('submerchant_id', '=', id)
      .executeTakeFirstOrThrow();

  /** Reads it on `on`, holds the answer to the reference from its rows, and returns the answer's text. */
  async function read(on = app): Promise<string> {
    const answer = await on.inject({ method: 'GET', url: base, headers: merchant.secret });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await presentedAnswer(app, id, merchant.id, clock.now()));
    return answer.body;
  }

  const ok = (result: { status: number; body: unknown }) => {
    expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
    return result.body as { data: { id: string } };
  };

  test('a read answers the stored answer, and stores it when there is none', async () => {
    const sent = await read();
    const kept = await storedAnswer();
    expect(kept.head).toContain(`"id":"${id}"`);
    // A marked copy of the stored text, its version unchanged: an instance that has not answered it yet sends
    // the stored text; the one that has sends again what it sent (the version says nothing changed).
    await app.store.db
      .updateTable('submerchant_answers')
      .set({ head: kept.head!.replace('"trade_name":"', '"trade_name":"(stored) ') })
      .where('submerchant_id', '=', id)
      .execute();
    const elsewhere = await other.inject({ method: 'GET', url: base, headers: merchant.secret });
    expect(elsewhere.json().data.trade_name).toMatch(/^\(stored\) /);
    expect((await app.inject({ method: 'GET', url: base, headers: merchant.secret })).body).toBe(sent);
    await app.store.db
      .updateTable('submerchant_answers')
      .set({ head: kept.head })
      .where('submerchant_id', '=', id)
      .execute();
    answerCache(other.store.db).delete(id);
  });

  test('an answer stored by another statement (an older release) is built again', async () => {
    await read();
    await app.store.db
      .updateTable('submerchant_answers')
      .set({ format: 'an older statement', head: '{"stale":true}' })
      .where('submerchant_id', '=', id)
      .execute();
    await read(other);
    expect((await storedAnswer()).head).toContain(`"id":"${id}"`);
  });

  test('another merchant never reads it, not even from an instance holding it', async () => {
    await read();
    const stranger = await createBusyMerchant(app, 'Stranger');
    const answer = await app.inject({ method: 'GET', url: base, headers: stranger.secret });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain(id);
    await read();
  });

  test('an instance keeps at most its bound of answers, the least recently read going first', async () => {
    const seeded = [id];
    for (let i = 0; i < 2; i++) seeded.push((await seedSubmerchant(app, merchant, { documents: 2 })).id);
    const bodies: string[] = [];
    for (const each of seeded) {
      const answer = await app.inject({
        method: 'GET',
        url: `/v1/submerchants/${each}`,
        headers: merchant.secret,
      });
      bodies.push(answer.body);
    }
    // What the app keeps is what it sent, and counted.
    const kept = answerCache(app.store.db);
    expect(kept.size).toBeGreaterThanOrEqual(bodies.reduce((sum, body) => sum + body.length, 0));
    for (const [i, each] of seeded.entries()) expect(kept.get(each)?.text).toBe(bodies[i]);

    const bound = bodies[0]!.length + bodies[1]!.length + bodies[2]!.length - 1;
    const cache = new AnswerCache(bound);
    const entry = (text: string) => ({
      merchantId: merchant.id,
      version: 1,
      validFrom: null,
      staleAfter: null,
      text,
    });
    cache.set(seeded[0]!, entry(bodies[0]!));
    cache.set(seeded[1]!, entry(bodies[1]!));
    cache.get(seeded[0]!);
    cache.set(seeded[2]!, entry(bodies[2]!));
    expect(cache.size).toBeLessThanOrEqual(bound);
    expect(cache.get(seeded[1]!)).toBeUndefined();
    expect(cache.get(seeded[0]!)?.text).toBe(bodies[0]);
    expect(cache.get(seeded[2]!)?.text).toBe(bodies[2]);
    // An answer larger than the whole bound is not kept (nor does it push the others out).
    cache.set('too large', entry('x'.repeat(bound + 1)));
    expect(cache.get('too large')).toBeUndefined();
    expect(cache.size).toBe(bodies[0]!.length + bodies[2]!.length);
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
  test.each(writes)('%s: the next read shows it, on either instance', async (_, write) => {
    const before = await read();
    expect(await read(other)).toBe(before);
    clock.advance(1000);
    await write();
    // `other` first: it held the answer from before, and did not see the write.
    expect(await read(other)).not.toBe(before);
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
