import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { listCharges } from '../../../src/server/charges/list.js';
import { chargeSearch } from '../../../src/server/charges/search-index.js';
import { chargeSearchText } from '../../../src/server/charges/service.js';
import { withCheckDigits } from '../../../src/server/core/tax-id.js';
import { createTestMerchant, DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { quickCharge, seedCharges } from '../../helpers/charges.js';

// The list's search goes through a trigram index (FTS5 on SQLite, pg_trgm on PostgreSQL) for all but the most
// common terms and scans the date range for those and for short ones. Either way it must answer what the plain substring match
// answers: every charge of the merchant whose id, name, e-mail or document (raw or formatted) holds the term,
// case-insensitively, accents kept, newest first, with the exact total.

const FIRST = ['José', 'Maria', 'João', 'Conceição', 'Ana', 'Zoë'];
const LAST = ['Araújo', 'Silva', 'Gonçalves', 'Souza', 'Müller'];
const COUNT = 1_300;
const FROM = Date.parse('2026-01-01T00:00:00.000Z');
const TO = Date.parse('2026-06-30T00:00:00.000Z');

const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
function customer(i: number) {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  return {
    name: `${first} ${last}`,
    // Every e-mail at gmail.com: "gmail" is a term too common for the index.
    email: `${plain(first)}.${plain(last)}${i}@gmail.com`,
    document: withCheckDigits(String(100_000_000 + i * 7919).slice(0, 9), 'cpf'),
  };
}

interface ChargeJson {
  id: string;
  created_at: string;
}

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let busy: TestMerchant;

  const list = async (query: Record<string, string>, who: TestMerchant = busy) => {
    const response = await app.inject({
      method: 'GET',
      url: `/v1/charges?${new URLSearchParams(query)}`,
      headers: who.secret,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { data: ChargeJson[]; pagination: { total: number } };
  };

  /** Every page of a search, as a merchant paging through it would read it. */
  const everyMatch = async (query: Record<string, string>) => {
    const first = await list({ ...query, limit: '100' });
    const ids = first.data.map((charge) => charge.id);
    for (let page = 2; page <= Math.ceil(first.pagination.total / 100); page++) {
      ids.push(
        ...(await list({ ...query, limit: '100', page: String(page) })).data.map((charge) => charge.id),
      );
    }
    return { total: first.pagination.total, ids };
  };

  /** What the plain substring match answers, computed here from the seeded charges. */
  let seeded: { id: string; text: string; createdAt: string }[];
  const expected = (term: string, range: { date_from?: string; date_to?: string } = {}) => {
    const from = range.date_from ? `${range.date_from}T00:00:00.000Z` : '';
    const to = range.date_to ? `${range.date_to}T23:59:59.999Z` : '9';
    const ids = seeded
      .filter((row) => row.createdAt >= from && row.createdAt <= to && row.text.includes(term.toLowerCase()))
      .sort((a, b) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
      )
      .map((row) => row.id);
    return { total: ids.length, ids };
  };

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect));
    busy = await createTestMerchant(app, { name: 'Busy' });
    await seedCharges(app, busy.id, COUNT, {
      from: new Date(FROM).toISOString(),
      to: new Date(TO).toISOString(),
      customer,
    });
    // Another merchant's charges hold the same customers: they must never show.
    const other = await createTestMerchant(app, { name: 'Other' });
    await seedCharges(app, other.id, 300, {
      from: new Date(FROM).toISOString(),
      to: new Date(TO).toISOString(),
      customer,
    });
    const rows = await app.store.db
      .selectFrom('charges')
      .select(['id', 'created_at', 'customer_name', 'customer_email', 'customer_document'])
      .where('merchant_id', '=', busy.id)
      .execute();
    seeded = rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      text: chargeSearchText(row.id, {
        name: row.customer_name,
        email: row.customer_email,
        document: row.customer_document,
      }),
    }));
  }, 60_000);

  const someone = 617;
  const cpf = () => customer(someone).document;
  const terms: [string, () => string][] = [
    ['an e-mail fragment', () => `${plain(customer(someone).email).split('@')[0]}@gm`],
    ['a whole e-mail, capitalised', () => customer(someone).email.toUpperCase()],
    ['CPF digits', cpf],
    ['a formatted CPF', () => cpf().replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4')],
    ['part of a CPF', () => cpf().slice(2, 8)],
    ['an id prefix in capitals', () => seeded[someone]!.id.slice(0, 13).toUpperCase()],
    ['a name with accents', () => 'CONCEIÇÃO GONÇALVES'],
    ['an accented surname', () => 'araújo'],
    ['its unaccented spelling (accents are kept: no match)', () => 'araujo'],
    ['a name with a diaeresis', () => 'zoë müller'],
    ['trigrams that all occur, but never together in this order', () => 'silva.joão'],
    ['a term every charge holds', () => 'gmail'],
    ['a common surname, over several pages', () => 'souza'],
    ['two characters (no trigram)', () => 'jo'],
    ['one accented character', () => 'ç'],
    ['one digit', () => '7'],
    ['LIKE wildcards, taken literally', () => '%a_'],
    ['a long term with LIKE wildcards, taken literally', () => 'jose.araujo_617%gmail'],
    ['a long term found by its first trigrams, then checked whole', () => 'jose.araujo617@gmail.con'],
    ['a double quote', () => 'a"b'],
    ['a single quote and a backslash', () => "o'neil\\"],
    ['nothing known', () => 'zuleica'],
  ];

  test.each(terms)('%s: the same charges, order and total as the plain match', async (_, term) => {
    const all = await everyMatch({ search: term() });
    expect(all).toEqual(expected(term()));
    const march = { date_from: '2026-03-01', date_to: '2026-03-31' };
    expect(await everyMatch({ search: term(), ...march })).toEqual(expected(term(), march));
  });

  test('a page past the last match is empty and still tells the exact total', async () => {
    const { total } = expected('souza');
    expect(total).toBeGreaterThan(100);
    const past = await list({ search: 'souza', limit: '100', page: String(Math.ceil(total / 100) + 1) });
    expect(past.data).toEqual([]);
    expect(past.pagination).toEqual({
      page: Math.ceil(total / 100) + 1,
      limit: 100,
      total,
      totalPages: Math.ceil(total / 100),
    });
  });

  test('on SQLite, terms with up to 8,000 candidates in the range take the index, short ones the scan', async () => {
    if (dialect !== 'sqlite') return;
    const narrowed = async (term: string, range = {}) => {
      const search = await chargeSearch(app.store.db, busy.id, term, range);
      return search === 'none' ? search : search.narrow !== undefined;
    };
    for (const term of [cpf(), customer(someone).email, 'conceição gonçalves', 'souza', 'gmail']) {
      expect(await narrowed(term), term).toBe(true);
    }
    expect(await narrowed('zuleica')).toBe('none');
    // Held by charges, but none of these days: the index's day range answers it alone.
    expect(await narrowed('souza', { dateFrom: '2025-01-01', dateTo: '2025-12-31' })).toBe('none');
    expect(await narrowed('jo')).toBe(false);
  });

  test("on PostgreSQL, a bounded range is read day by day from 0043's index unless the estimate passes the cap", async () => {
    if (dialect !== 'postgres') return;
    const plan = async (term: string, range: { dateFrom?: string; dateTo?: string }, cap?: number) => {
      const search = await chargeSearch(app.store.db, busy.id, term, range, cap);
      if (search === 'none') return search;
      return search.drives ? 'by day' : search.narrow ? 'first trigrams, all days' : 'range';
    };
    const march = { dateFrom: '2026-03-01', dateTo: '2026-03-31' };
    for (const term of ['souza', 'gmail', 'zuleica', 'araújo', "o'neil\\"]) {
      expect(await plan(term, march), term).toBe('by day');
    }
    // Three separate word trigrams or more: selective, found from their lists over all days.
    for (const term of [cpf(), customer(someone).email]) {
      expect(await plan(term, march), term).toBe('first trigrams, all days');
    }
    // Above the cap (here 10 candidates estimated in March), the range's entries; an open or a long range, too.
    expect(await plan('gmail', march, 10)).toBe('range');
    expect(await plan('souza', { dateFrom: '2026-03-01' })).toBe('range');
    expect(await plan('souza', { dateFrom: '2026-01-01', dateTo: '2026-06-30' })).toBe('range');
    expect(await plan('jo', march)).toBe('range');
    // A range ending before it starts holds no charge.
    expect(await plan('souza', { dateFrom: '2026-03-02', dateTo: '2026-03-01' })).toBe('none');
  });

  test('a common term has the same charges, order and exact total on either side of the plan switch', async () => {
    const march = { date_from: '2026-03-01', date_to: '2026-03-31' };
    for (const term of ['gmail', 'souza', 'silva.joão', 'araújo']) {
      const { total, ids } = expected(term, march);
      for (const cap of [1, 1_000_000]) {
        const filters = {
          page: 2,
          limit: 20,
          dateFrom: march.date_from,
          dateTo: march.date_to,
          search: term,
        };
        const page = await listCharges(app.store.db, busy.id, filters, cap);
        expect(page.pagination.total, `${term}, cap ${cap}`).toBe(total);
        expect(page.charges.map((charge) => charge.id)).toEqual(ids.slice(20, 40));
      }
    }
  });

  test("a term held only by another merchant's charges finds nothing, with a total of 0", async () => {
    const stranger = await createTestMerchant(app, { name: 'Stranger' });
    const who = () => ({ name: 'Ottilie Fremdling', email: 'ottilie@fremdling.de', document: cpf() });
    await seedCharges(app, stranger.id, 3, {
      from: '2026-03-02T00:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      customer: who,
    });
    expect((await list({ search: 'fremdling' }, stranger)).pagination.total).toBe(3);
    const busySees = await list({ search: 'fremdling', date_from: '2026-03-01', date_to: '2026-03-31' });
    expect(busySees).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await list({ search: 'fremdling' })).pagination.total).toBe(0);
  });

  test("a date range holds its first day's first millisecond and its last day's last one, nothing beyond", async () => {
    const edge = await createTestMerchant(app, { name: 'Edge' });
    const who = () => ({ name: 'Edgar Limiar', email: 'edgar@limiar.com.br', document: cpf() });
    const seed = (from: string, to: string) => seedCharges(app, edge.id, 2, { from, to, customer: who });
    await seed('2026-07-01T00:00:00.000Z', '2026-07-31T23:59:59.999Z');
    await seed('2026-06-30T23:59:59.999Z', '2026-08-01T00:00:00.000Z');
    const july = await list({ search: 'limiar', date_from: '2026-07-01', date_to: '2026-07-31' }, edge);
    expect(july.data.map((charge) => charge.created_at)).toEqual([
      '2026-07-31T23:59:59.999Z',
      '2026-07-01T00:00:00.000Z',
    ]);
    expect(july.pagination.total).toBe(2);
    const oneDay = await list({ search: 'limiar', date_from: '2026-06-30', date_to: '2026-06-30' }, edge);
    expect(oneDay.data.map((charge) => charge.created_at)).toEqual(['2026-06-30T23:59:59.999Z']);
    expect((await list({ search: 'limiar' }, edge)).pagination.total).toBe(4);
  });

  /** Every charge has its index row (and no other row is there): the key computed from it, as 0039 does. */
  const expectIndexedByDay = async () => {
    const keys = async (query: string) =>
      (await sql.raw<{ key: bigint }>(query).execute(app.store.db.withoutPlugins())).rows.map((row) =>
        String(row.key),
      );
    const expected = await keys(
      `select (unixepoch(created_at) / 86400) * 1099511627776 + rowid as key from charges order by key`,
    );
    expect(await keys('select rowid as key from charges_search_days order by rowid')).toEqual(expected);
  };

  test('a charge made through the API is found at once, and still after its refund', async () => {
    const { response } = await quickCharge(app, merchant, {
      session: false,
      body: { customer: { name: 'Þórunn Ýr Kjartansdóttir', email: 'thorunn@example.is', document: cpf() } },
    });
    expect(response.statusCode).toBe(201);
    const id = response.json().data.id as string;
    const found = async (search: string) =>
      (await list({ search }, merchant)).data.map((charge) => charge.id);
    expect(await found('kjartansdóttir')).toEqual([id]);
    expect(await found('thorunn@example')).toEqual([id]);
    const refund = await app.inject({
      method: 'POST',
      url: `/v1/charges/${id}/refund`,
      headers: merchant.secret,
    });
    expect(refund.statusCode).toBe(200);
    expect(await found('ÞÓRUNN')).toEqual([id]);
    if (dialect === 'sqlite') {
      // The index holds one row per charge, keyed by its day and rowid (migration 0039), and answers the search.
      await expectIndexedByDay();
      // VACUUM (an operator's, from another connection) rebuilds the tables; the index names charges by rowid,
      // which it must keep.
      const file = new SQLite(app.config.databaseUrl.slice('file:'.length));
      file.exec('vacuum');
      file.close();
      expect(await found('kjartansdóttir')).toEqual([id]);
      await expectIndexedByDay();
    }
  });
});
