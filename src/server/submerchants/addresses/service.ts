import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { newId } from '../../core/ids.js';
import { flag, readFlag } from '../../db/columns.js';
import { type ListFilters, paginate } from '../../db/lists.js';
import { notFound } from '../../errors.js';
import type { Outbox } from '../../webhooks/outbox.js';
import { assertFields } from '../fields.js';
import {
  type Actor,
  type Db,
  emitSubmerchantUpdated,
  findAttached,
  lockSubmerchant,
  requireAttached,
  requireSubmerchant,
  type Scope,
  type SubmerchantChange,
  type SubmerchantRow,
} from '../store.js';
import type { SubmerchantAddressesTable } from '../table.js';
import { addressChecks } from './rules.js';
import type { AddressCreateBody, AddressPatchBody } from './schemas.js';

export type AddressRow = Selectable<SubmerchantAddressesTable>;

/** One of a submerchant's addresses. */
export interface Address {
  id: string;
  submerchantId: string;
  street: string;
  number: string;
  complement: string | null;
  neighborhood: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  type: 'billing' | 'shipping' | 'both';
  isPrimary: boolean;
  createdAt: string;
  updatedAt: string;
}

export function addressFromRow(row: AddressRow): Address {
  return {
    id: row.id,
    submerchantId: row.submerchant_id,
    street: row.street,
    number: row.number,
    complement: row.complement,
    neighborhood: row.neighborhood,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    country: row.country,
    type: row.type as Address['type'],
    isPrimary: readFlag(row.is_primary),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type AddressCreate = Static<typeof AddressCreateBody>;
export type AddressPatch = Static<typeof AddressPatchBody>;

type MerchantActor = Actor & { kind: 'merchant' };

/** Only one primary address: making one primary clears the flag on the others (under the submerchant's lock). */
async function clearPrimary(trx: Db, submerchantId: string, exceptId: string | null, timestamp: string) {
  let query = trx
    .updateTable('submerchant_addresses')
    .set({ is_primary: 0, updated_at: timestamp })
    .where('submerchant_id', '=', submerchantId)
    .where('is_primary', '=', 1);
  if (exceptId) query = query.where('id', '!=', exceptId);
  await query.execute();
}

const addressChanged = (
  outbox: Outbox,
  trx: Db,
  submerchant: SubmerchantRow,
  actor: MerchantActor,
  action: SubmerchantChange['action'],
  id: string,
  now: Date,
) => emitSubmerchantUpdated(outbox, trx, actor.id, submerchant, { resource: 'address', action, id }, now);

export async function createAddress(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  actor: MerchantActor,
  body: AddressCreate,
  now: Date,
): Promise<Address> {
  assertFields(addressChecks(body));
  const timestamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { merchantId: actor.id }, now);
    if (body.is_primary) await clearPrimary(trx, submerchantId, null, timestamp);
    const address = await trx
      .insertInto('submerchant_addresses')
      .values({
        id: newId(),
        submerchant_id: submerchantId,
        street: body.street,
        number: body.number,
        complement: body.complement ?? null,
        neighborhood: body.neighborhood,
        city: body.city,
        state: body.state.toUpperCase(),
        zip_code: body.zip_code,
        country: (body.country ?? 'BR').toUpperCase(),
        type: body.type ?? 'both',
        is_primary: flag(body.is_primary ?? false),
        created_at: timestamp,
        updated_at: timestamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await addressChanged(outbox, trx, submerchant, actor, 'created', address.id, now);
    return addressFromRow(address);
  });
}

export async function updateAddress(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  addressId: string,
  actor: MerchantActor,
  patch: AddressPatch,
  now: Date,
): Promise<Address> {
  const timestamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { merchantId: actor.id }, now);
    const existing = await findAttached(trx, 'submerchant_addresses', submerchantId, addressId);
    if (!existing) throw notFound('Address');
    // The rules of the address as it will be: a new country changes what state and zip_code must be.
    const { state, zip_code, country } = existing;
    assertFields(addressChecks({ state, zip_code, country, ...patch }));
    if (patch.is_primary) await clearPrimary(trx, submerchantId, addressId, timestamp);
    const address = await trx
      .updateTable('submerchant_addresses')
      .set({
        ...(patch.street !== undefined && { street: patch.street }),
        ...(patch.number !== undefined && { number: patch.number }),
        ...(patch.complement !== undefined && { complement: patch.complement }),
        ...(patch.neighborhood !== undefined && { neighborhood: patch.neighborhood }),
        ...(patch.city !== undefined && { city: patch.city }),
        ...(patch.state !== undefined && { state: patch.state.toUpperCase() }),
        ...(patch.zip_code !== undefined && { zip_code: patch.zip_code }),
        ...(patch.country !== undefined && { country: patch.country.toUpperCase() }),
        ...(patch.type !== undefined && { type: patch.type }),
        ...(patch.is_primary !== undefined && { is_primary: flag(patch.is_primary) }),
        updated_at: timestamp,
      })
      .where('id', '=', addressId)
      .where('submerchant_id', '=', submerchantId)
      .returningAll()
      .executeTakeFirst();
    if (!address) throw notFound('Address');
    await addressChanged(outbox, trx, submerchant, actor, 'updated', address.id, now);
    return addressFromRow(address);
  });
}

export async function deleteAddress(
  db: Db,
  outbox: Outbox,
  submerchantId: string,
  addressId: string,
  actor: MerchantActor,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const submerchant = await lockSubmerchant(trx, submerchantId, { merchantId: actor.id }, now);
    const result = await trx
      .deleteFrom('submerchant_addresses')
      .where('id', '=', addressId)
      .where('submerchant_id', '=', submerchantId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('Address');
    await addressChanged(outbox, trx, submerchant, actor, 'deleted', addressId, now);
  });
}

export async function listAddresses(db: Db, submerchantId: string, scope: Scope, filters: ListFilters) {
  await requireSubmerchant(db, submerchantId, scope);
  const { rows, pagination } = await paginate(
    db.selectFrom('submerchant_addresses').selectAll().where('submerchant_id', '=', submerchantId),
    filters,
    { createdAt: 'created_at', id: 'id', search: ['street', 'neighborhood', 'city', 'zip_code'] },
  );
  return { addresses: rows.map(addressFromRow), pagination };
}

export async function getAddress(db: Db, submerchantId: string, addressId: string, scope: Scope) {
  return addressFromRow(
    await requireAttached(db, 'submerchant_addresses', submerchantId, addressId, scope, 'Address'),
  );
}
