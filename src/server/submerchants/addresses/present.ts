import type { Selectable } from 'kysely';
import { readFlag } from '../../db/columns.js';
import type { SubmerchantAddressesTable } from '../table.js';

export type AddressRow = Selectable<SubmerchantAddressesTable>;

export function presentAddress(row: AddressRow) {
  return {
    id: row.id,
    submerchant_id: row.submerchant_id,
    street: row.street,
    number: row.number,
    complement: row.complement,
    neighborhood: row.neighborhood,
    city: row.city,
    state: row.state,
    zip_code: row.zip_code,
    country: row.country,
    type: row.type as 'billing' | 'shipping' | 'both',
    is_primary: readFlag(row.is_primary),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
