import { randomUUID } from 'node:crypto';
import { CompiledQuery, type KyselyPlugin, type QueryId, type RootOperationNode, sql } from 'kysely';
import { listCharges } from '../../src/server/charges/list.js';
import { chargeSearchText } from '../../src/server/charges/service.js';
import { withCheckDigits } from '../../src/server/core/tax-id.js';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { cardHash } from '../../src/server/tokens/card.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';
import { seededRandom } from '../lib/seeded-random.js';

// GET /v1/charges over CHARGES charges, on the store of BENCH_DATABASE_URL or a fresh SQLite file of one merchant (and some of another), written straight into the store:
// customers with Brazilian names, e-mails and CPFs/CNPJs, several charges each, spread over 90 days with a day's
// rhythm; outcomes, cards and fraud analyses varied. Prints the queries to time and their query plans.

const CHARGES = Number(process.env.BENCH_CHARGES ?? 100_000);
const DAYS = 90;

const { random, pick } = seededRandom(20261121);
const digits = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join('');

const FIRST = [
  'Maria',
  'José',
  'Ana',
  'João',
  'Francisca',
  'Antônio',
  'Antonia',
  'Francisco',
  'Adriana',
  'Carlos',
  'Juliana',
  'Paulo',
  'Márcia',
  'Pedro',
  'Fernanda',
  'Lucas',
  'Patrícia',
  'Luiz',
  'Aline',
  'Marcos',
  'Sandra',
  'Luis',
  'Camila',
  'Gabriel',
  'Amanda',
  'Rafael',
  'Bruna',
  'Daniel',
  'Jéssica',
  'Marcelo',
  'Letícia',
  'Bruno',
  'Júlia',
  'Eduardo',
  'Luciana',
  'Felipe',
  'Vanessa',
  'Raimundo',
  'Mariana',
  'Rodrigo',
  'Gabriela',
  'Manoel',
  'Sônia',
  'Mateus',
  'Rita',
  'André',
  'Beatriz',
  'Fábio',
  'Larissa',
  'Thiago',
] as const;
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Gonçalves',
  'Santana',
  'Teixeira',
  'Araújo',
  'Pinto',
  'Correia',
  'Cavalcanti',
  'Monteiro',
] as const;
const DOMAINS = [
  'gmail.com',
  'hotmail.com',
  'outlook.com',
  'yahoo.com.br',
  'uol.com.br',
  'bol.com.br',
  'icloud.com',
];
const COMPANY = ['Comércio', 'Serviços', 'Distribuidora', 'Transportes', 'Papelaria', 'Mercado', 'Farmácia'];
const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

interface Customer {
  name: string;
  email: string;
  document: string;
}
function newCustomer(): Customer {
  if (random() < 0.08) {
    const name = `${pick(COMPANY)} ${pick(LAST)} ${pick(['LTDA', 'ME', 'EIRELI', 'S.A.'])}`;
    return {
      name,
      email: `financeiro@${ascii(name.split(' ')[1]!)}${digits(2)}.com.br`,
      document: withCheckDigits(`${digits(8)}0001`, 'cnpj'),
    };
  }
  const first = pick(FIRST);
  const last = random() < 0.5 ? [pick(LAST), pick(LAST)] : [pick(LAST)];
  const name = [first, ...last].join(' ');
  const user = pick([
    `${ascii(first)}.${ascii(last.at(-1)!)}`,
    `${ascii(first)}${ascii(last[0]!)}${digits(2)}`,
    `${ascii(first)}_${digits(4)}`,
  ]);
  return { name, email: `${user}@${pick(DOMAINS)}`, document: withCheckDigits(digits(9), 'cpf') };
}

const { app, stopOnSigterm } = await startBenchApp();
const now = new Date();
const created = await createMerchant(app.store.db, { name: 'Bench Shop', live: false, now });
const other = await createMerchant(app.store.db, { name: 'Other Shop', live: false, now });
// The limiter still counts every request (GET /v1/charges is in the transactions category); the limit is only
// raised so that the run is not refused.
await updateMerchantSettings(
  app.store.db,
  created.merchant.id,
  { rateLimits: { transactions: 100_000_000 } },
  now,
);

const hashes = ['4111111111111111', '5555555555554444', '378282246310005', '6062825624254001'].map((number) =>
  cardHash(app.config.cardHashKey, number),
);
const BRANDS = [
  { brand: 'visa', bin: '411111', last4: '1111' },
  { brand: 'mastercard', bin: '555555', last4: '4444' },
  { brand: 'amex', bin: '378282', last4: '0005' },
  { brand: 'hipercard', bin: '606282', last4: '4001' },
] as const;

/** A moment in the last DAYS days, more often in the afternoon and evening than at night. */
function createdAt(): string {
  const day = Math.floor(random() * DAYS);
  const hour = Math.min(23, Math.floor(8 + Math.abs(random() + random() + random() - 1.5) * 10));
  const at = new Date(now.getTime() - day * 86_400_000);
  at.setUTCHours(hour, Math.floor(random() * 60), Math.floor(random() * 60), Math.floor(random() * 1000));
  return (at > now ? new Date(now.getTime() - Math.floor(random() * 3_600_000)) : at).toISOString();
}

function chargeRow(merchantId: string, customer: Customer) {
  const id = randomUUID();
  const at = createdAt();
  const card = Math.floor(random() * BRANDS.length);
  const roll = random();
  const status = roll < 0.86 ? 'captured' : roll < 0.95 ? 'failed' : 'refunded';
  const failure =
    status === 'failed' ? pick(['card_declined', 'insufficient_funds', 'fraud_declined']) : null;
  const fraudScore =
    failure === 'fraud_declined' ? 70 + Math.floor(random() * 30) : Math.floor(random() * 45);
  return {
    id,
    merchant_id: merchantId,
    amount: 500 + Math.floor(random() * 200_000),
    payment_method: 'credit_card',
    installments: pick([1, 1, 1, 2, 3, 6, 10, 12]),
    status: status as 'captured' | 'failed' | 'refunded',
    failure_code: failure,
    failure_message: failure ? `Simulated ${failure}.` : null,
    customer_name: customer.name,
    customer_email: customer.email,
    customer_document: customer.document,
    customer_document_type: (customer.document.length === 11 ? 'cpf' : 'cnpj') as 'cpf' | 'cnpj',
    card_token_id: randomUUID(),
    ...{ card_brand: BRANDS[card]!.brand, card_bin: BRANDS[card]!.bin, card_last4: BRANDS[card]!.last4 },
    card_exp_month: 1 + Math.floor(random() * 12),
    card_exp_year: 2027 + Math.floor(random() * 6),
    card_holder_name: customer.name.toUpperCase(),
    card_hash: hashes[card]!,
    fraud_session_id: random() < 0.9 ? randomUUID() : null,
    visitor_id: random() < 0.85 ? randomUUID().replaceAll('-', '') : null,
    fraud_status: (failure === 'fraud_declined' ? 'declined' : fraudScore >= 30 ? 'review' : 'approved') as
      | 'approved'
      | 'review'
      | 'declined',
    fraud_score: fraudScore,
    fraud_reasons: fraudScore >= 30 ? '["IP_MISMATCH","PROFILE_MISSING"]' : '[]',
    search_text: chargeSearchText(id, customer),
    refunded_at: status === 'refunded' ? at : null,
    created_at: at,
    updated_at: at,
  };
}

// About three charges per customer, some customers far more often than others.
const customers = Array.from({ length: Math.ceil(CHARGES / 3) }, newCustomer);
const started = performance.now();
const rows: ReturnType<typeof chargeRow>[] = [];
await app.store.db.transaction().execute(async (trx) => {
  const BATCH = 500;
  const write = async (merchantId: string, count: number) => {
    for (let offset = 0; offset < count; offset += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, count - offset) }, () =>
        chargeRow(merchantId, customers[Math.floor(random() ** 1.5 * customers.length)]!),
      );
      if (merchantId === created.merchant.id) rows.push(...batch);
      await trx.insertInto('charges').values(batch).execute();
    }
  };
  await write(created.merchant.id, CHARGES);
  await write(other.merchant.id, Math.ceil(CHARGES / 5));
});
// What the store's own maintenance would have done by then: statistics, and on PostgreSQL the visibility map that
// lets an index answer without the table.
await sql`${sql.raw(app.store.dialect === 'sqlite' ? 'analyze' : 'vacuum analyze charges')}`.execute(
  app.store.db,
);
const seedSeconds = (performance.now() - started) / 1000;
const base = await listenLocally(app);

// What a support agent types: a surname, a full e-mail, a CPF with and without its punctuation, a charge id,
// and a name with no charge (the page query then reads the whole range, as the count always does).
const day = (offset: number) => new Date(now.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
const range = { date_from: day(29), date_to: day(0) };
const sample = rows.filter((row) => row.created_at >= `${range.date_from}T00:00:00.000Z`);
const someone = sample[Math.floor(sample.length / 2)]!;
const formatted = someone.customer_document.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
const searches: Record<string, string> = {
  'surname (souza)': 'souza',
  'e-mail': someone.customer_email,
  'CPF digits': someone.customer_document,
  'CPF formatted': formatted,
  'charge id': someone.id,
  'no match': 'zuleica',
};
const queries = Object.entries(searches).map(([kind, search]) => ({
  kind,
  path: `/v1/charges?${new URLSearchParams({ limit: '20', search, ...range })}`,
}));

// The plans of the statements behind a list request, for a selective search and a common one, as listCharges
// runs them (on SQLite, the trigram index's lookups first).
const explain = app.store.dialect === 'sqlite' ? 'explain query plan' : 'explain';
const plans = [];
for (const search of [someone.customer_email, 'souza']) {
  // Only the statements run: a query built into another (the search's CTE) passes through the plugin too.
  const built = new Map<QueryId, RootOperationNode>();
  const statements: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      built.set(queryId, node);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      statements.push(built.get(queryId)!);
      return result;
    },
  };
  await listCharges(app.store.db.withPlugin(recorder), created.merchant.id, {
    page: 1,
    limit: 20,
    dateFrom: range.date_from,
    dateTo: range.date_to,
    search,
  });
  for (const node of statements) {
    const compiled = app.store.db.getExecutor().compileQuery(node, { queryId: 'plan' });
    const { rows: steps } = await app.store.db.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]),
    );
    plans.push({ search, sql: compiled.sql, plan: steps.map((step) => step.detail ?? step['QUERY PLAN']!) });
  }
}

console.log(
  JSON.stringify({
    base,
    authorization: basic(created.secretKey),
    queries,
    charges: CHARGES,
    inRange: sample.length,
    seedSeconds,
    plans,
  }),
);
stopOnSigterm();
