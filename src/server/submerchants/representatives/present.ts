import type { Selectable } from 'kysely';
import { readFlag } from '../../db/columns.js';
import type { SubmerchantRepresentativesTable } from '../table.js';

export type RepresentativeRow = Selectable<SubmerchantRepresentativesTable>;

export function presentRepresentative(row: RepresentativeRow) {
  return {
    id: row.id,
    submerchant_id: row.submerchant_id,
    name: row.name,
    document: row.document,
    entity_type: row.entity_type as 'pf' | 'pj',
    legal_name: row.legal_name,
    birth_date: row.birth_date,
    mother_name: row.mother_name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    qualification: row.qualification,
    participation_percentage:
      row.participation_hundredths === null ? null : Number(row.participation_hundredths) / 100,
    is_admin: readFlag(row.is_admin),
    review_status: row.review_status as 'pending' | 'approved',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
