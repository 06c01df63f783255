import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import { fromJson, toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { type ListFilters, type Pagination, paginate } from '../db/lists.js';
import { notFound } from '../errors.js';
import { endpointLimitReached } from './errors.js';
import { generateEndpointSecret, sealEndpointSecret } from './secrets.js';
import type { WebhookEndpointsTable } from './table.js';

export type EndpointStatus = 'active' | 'paused';

/** An endpoint as the API shows it: never with its secret. */
export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  status: EndpointStatus;
  createdAt: string;
  updatedAt: string;
}

export function toEndpoint(row: Selectable<WebhookEndpointsTable>): Endpoint {
  return {
    id: row.id,
    url: row.url,
    events: fromJson<string[]>(row.events, []),
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * How many endpoints a merchant may have, paused ones included (Stripe allows 16 per account). Each endpoint
 * multiplies every event into one more delivery, so the cap bounds what one merchant can put in the queue.
 */
export const MAX_ENDPOINTS_PER_MERCHANT = 16;

/** Where a worker connects for the endpoint: what it counts to lend one host its share of the slots. */
export const endpointHost = (url: string): string => new URL(url).host;

/**
 * The merchant's endpoint count, for the cap. On PostgreSQL the merchant's endpoints are locked first, so that
 * parallel registrations count one after another (each count is a new statement and sees the commit it waited
 * for); SQLite runs one write transaction at a time.
 */
async function countEndpointsForCap(trx: Kysely<Database>, merchantId: string): Promise<number> {
  if (dialectOf(trx) === 'postgres') {
    await trx
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .forUpdate()
      .execute();
  }
  const { count } = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * The secret is returned here and by regeneration only; the store keeps it sealed. A merchant at
 * MAX_ENDPOINTS_PER_MERCHANT is refused (422 WEBHOOK_ENDPOINT_LIMIT_REACHED) and nothing is written.
 */
export async function createEndpoint(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    url: string;
    events: string[];
    masterKey: Buffer;
    now: Date;
    /** Runs last in the registration's transaction (the route records its idempotent response there). */
    whenCreated?: (trx: Kysely<Database>, created: { endpoint: Endpoint; secret: string }) => Promise<void>;
  },
): Promise<{ endpoint: Endpoint; secret: string }> {
  const id = newId();
  const secret = generateEndpointSecret();
  const timestamp = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    if ((await countEndpointsForCap(trx, input.merchantId)) >= MAX_ENDPOINTS_PER_MERCHANT) {
      throw endpointLimitReached(MAX_ENDPOINTS_PER_MERCHANT);
    }
    const row = await trx
      .insertInto('webhook_endpoints')
      .values({
        id,
        merchant_id: input.merchantId,
        url: input.url,
        host: endpointHost(input.url),
        events: toJson(input.events),
        status: 'active',
        secret_sealed: sealEndpointSecret(secret, input.masterKey, id),
        created_at: timestamp,
        updated_at: timestamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const created = { endpoint: toEndpoint(row), secret };
    await input.whenCreated?.(trx, created);
    return created;
  });
}

export async function listEndpoints(
  db: Kysely<Database>,
  merchantId: string,
  filters: ListFilters,
): Promise<{ endpoints: Endpoint[]; pagination: Pagination }> {
  const query = db.selectFrom('webhook_endpoints').selectAll().where('merchant_id', '=', merchantId);
  const { rows, pagination } = await paginate(query, filters, {
    createdAt: 'created_at',
    id: 'id',
    status: 'status',
    search: ['url', 'id'],
  });
  return { endpoints: rows.map(toEndpoint), pagination };
}

/** The merchant's endpoint, or a 404: another merchant's endpoint is not found either. */
export async function requireEndpoint(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<Endpoint> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint');
  return toEndpoint(row);
}

export interface EndpointChange {
  url?: string;
  events?: string[];
  status?: EndpointStatus;
}

/** Applies a change; null when the merchant has no such endpoint. Pending deliveries follow a new URL. */
export async function updateEndpoint(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
  change: EndpointChange,
  now: Date,
): Promise<Endpoint | null> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      ...(change.url !== undefined && { url: change.url, host: endpointHost(change.url) }),
      ...(change.events !== undefined && { events: toJson(change.events) }),
      ...(change.status !== undefined && { status: change.status }),
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .returningAll()
    .executeTakeFirst();
  return row ? toEndpoint(row) : null;
}

/** Deletes the endpoint with its deliveries and their attempt log; false when there was no such endpoint. */
export async function deleteEndpoint(db: Kysely<Database>, merchantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A new secret replaces the old one at once: every attempt from now on, pending ones included, is signed with it. */
export async function regenerateEndpointSecret(
  db: Kysely<Database>,
  input: { merchantId: string; id: string; masterKey: Buffer; now: Date },
): Promise<{ endpoint: Endpoint; secret: string } | null> {
  const secret = generateEndpointSecret();
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      secret_sealed: sealEndpointSecret(secret, input.masterKey, input.id),
      updated_at: input.now.toISOString(),
    })
    .where('id', '=', input.id)
    .where('merchant_id', '=', input.merchantId)
    .returningAll()
    .executeTakeFirst();
  return row ? { endpoint: toEndpoint(row), secret } : null;
}
