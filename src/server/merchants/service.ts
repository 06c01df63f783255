import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import { generateKey, hashKey } from '../core/keys.js';
import { flag, fromJson, readFlag, toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { type ListFilters, paginate } from '../db/lists.js';
import type { RateLimitCategory } from '../http/rate-limit.js';
import type { MerchantsTable } from './table.js';

export type { RateLimitCategory };

export type RateLimitOverrides = Partial<Record<RateLimitCategory, number>>;

export interface Merchant {
  id: string;
  name: string;
  fraudAnalysisMandatory: boolean;
  allowedHosts: string[];
  ipLookupUrls: string[];
  profilerEnabled: boolean;
  rateLimits: RateLimitOverrides;
  /** CPF or CNPJ, digits only; null until recorded (docs/decisions/bank-account-rules.md). */
  document: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MerchantSettingsChange {
  name?: string;
  fraudAnalysisMandatory?: boolean;
  allowedHosts?: string[];
  ipLookupUrls?: string[];
  profilerEnabled?: boolean;
  document?: string;
  /** A null value removes that category's override. */
  rateLimits?: Partial<Record<RateLimitCategory, number | null>>;
}

export function toMerchant(row: Selectable<MerchantsTable>): Merchant {
  return {
    id: row.id,
    name: row.name,
    fraudAnalysisMandatory: readFlag(row.fraud_analysis_mandatory),
    allowedHosts: fromJson<string[]>(row.allowed_hosts, []),
    ipLookupUrls: fromJson<string[]>(row.ip_lookup_urls, []),
    profilerEnabled: readFlag(row.profiler_enabled),
    rateLimits: fromJson<RateLimitOverrides>(row.rate_limits, {}),
    document: row.document ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface CreatedMerchant {
  merchant: Merchant;
  secretKey: string;
  publicKey: string;
}

export async function createMerchant(
  db: Kysely<Database>,
  input: { name: string; fraudAnalysisMandatory?: boolean; live: boolean; now: Date },
): Promise<CreatedMerchant> {
  const secretKey = generateKey('secret', input.live);
  const publicKey = generateKey('public', input.live);
  const timestamp = input.now.toISOString();
  const row = await db
    .insertInto('merchants')
    .values({
      id: newId(),
      name: input.name,
      secret_key_hash: hashKey(secretKey),
      public_key_hash: hashKey(publicKey),
      public_key: publicKey,
      fraud_analysis_mandatory: flag(input.fraudAnalysisMandatory ?? false),
      allowed_hosts: '[]',
      rate_limits: '{}',
      created_at: timestamp,
      updated_at: timestamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { merchant: toMerchant(row), secretKey, publicKey };
}

export async function findMerchantByKeyHash(
  db: Kysely<Database>,
  kind: 'secret' | 'public',
  keyHash: string,
): Promise<(Merchant & { keyHash: string }) | null> {
  const column = kind === 'secret' ? 'secret_key_hash' : 'public_key_hash';
  const row = await db.selectFrom('merchants').selectAll().where(column, '=', keyHash).executeTakeFirst();
  return row ? { ...toMerchant(row), keyHash: row[column] } : null;
}

export async function getMerchant(db: Kysely<Database>, id: string): Promise<Merchant | null> {
  const row = await db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMerchant(row) : null;
}

export async function countMerchants(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('merchants')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function updateMerchantSettings(
  db: Kysely<Database>,
  id: string,
  change: MerchantSettingsChange,
  now: Date,
): Promise<Merchant | null> {
  return db.transaction().execute(async (trx) => {
    const current = await getMerchant(trx, id);
    if (!current) return null;
    const rateLimits: RateLimitOverrides = { ...current.rateLimits };
    for (const [category, limit] of Object.entries(change.rateLimits ?? {})) {
      if (limit === null) delete rateLimits[category as RateLimitCategory];
      else rateLimits[category as RateLimitCategory] = limit;
    }
    const row = await trx
      .updateTable('merchants')
      .set({
        ...(change.name !== undefined && { name: change.name }),
        ...(change.fraudAnalysisMandatory !== undefined && {
          fraud_analysis_mandatory: flag(change.fraudAnalysisMandatory),
        }),
        ...(change.allowedHosts !== undefined && { allowed_hosts: toJson(change.allowedHosts) }),
        ...(change.ipLookupUrls !== undefined && { ip_lookup_urls: toJson(change.ipLookupUrls) }),
        ...(change.profilerEnabled !== undefined && { profiler_enabled: flag(change.profilerEnabled) }),
        ...(change.document !== undefined && { document: change.document }),
        rate_limits: toJson(rateLimits),
        updated_at: now.toISOString(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toMerchant(row);
  });
}

export async function listMerchants(db: Kysely<Database>, filters: ListFilters) {
  const { rows, pagination } = await paginate(db.selectFrom('merchants').selectAll(), filters, {
    createdAt: 'created_at',
    id: 'id',
    search: ['name', 'id'],
  });
  return { merchants: rows.map(toMerchant), pagination };
}
