import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { prepared } from '../db/prepared.js';
import type { AddressRow } from './addresses/service.js';
import type { DocumentRow } from './documents/service.js';
import type { RepresentativeRow } from './representatives/service.js';
import { groupStatusHistories } from './status-history.js';
import type { Db, Scope, SubmerchantRow } from './store.js';
import type {
  SubmerchantAddressesTable,
  SubmerchantDocumentsTable,
  SubmerchantRepresentativesTable,
  SubmerchantStatusChangesTable,
} from './table.js';

// Every column of each attached table, checked by the compiler against the row type (a column added to a table
// and not here fails to compile), so that the rows read back from JSON are the rows a `selectAll()` reads.
const all = <Table>(columns: Record<keyof Table, true>) => Object.keys(columns);
const REPRESENTATIVE = all<SubmerchantRepresentativesTable>({
  id: true,
  submerchant_id: true,
  name: true,
  document: true,
  entity_type: true,
  legal_name: true,
  birth_date: true,
  mother_name: true,
  email: true,
  phone: true,
  role: true,
  qualification: true,
  participation_hundredths: true,
  is_admin: true,
  review_status: true,
  created_at: true,
  updated_at: true,
});
const ADDRESS = all<SubmerchantAddressesTable>({
  id: true,
  submerchant_id: true,
  street: true,
  number: true,
  complement: true,
  neighborhood: true,
  city: true,
  state: true,
  zip_code: true,
  country: true,
  type: true,
  is_primary: true,
  created_at: true,
  updated_at: true,
});
const DOCUMENT = all<SubmerchantDocumentsTable>({
  id: true,
  submerchant_id: true,
  legal_representative_id: true,
  type: true,
  slot: true,
  number: true,
  file_url: true,
  file_name: true,
  file_size: true,
  mime_type: true,
  expires_at: true,
  notes: true,
  status: true,
  rejection_reason: true,
  reviewed_at: true,
  replaced_at: true,
  replaces_document_id: true,
  created_at: true,
  updated_at: true,
});
const STATUS_CHANGE = ['subject_id', 'from_status', 'to_status', 'actor', 'actor_id', 'reason', 'created_at'];

type StatusChangeRow = Pick<
  Selectable<SubmerchantStatusChangesTable>,
  'subject_id' | 'from_status' | 'to_status' | 'actor' | 'actor_id' | 'reason' | 'created_at'
>;

/**
 * The rows of one table under the submerchant, as one JSON array of objects in the given order: SQLite's
 * `json_group_array(json_object(…) order by …)` (3.44+), PostgreSQL's `json_agg(json_build_object(…) order by …)`.
 */
function nested(
  sqlite: boolean,
  table: string,
  columns: readonly string[],
  orderBy: readonly string[],
  where: RawBuilder<unknown> = sql``,
): RawBuilder<unknown> {
  const fields = sql.join(columns.map((column) => sql`${sql.lit(column)}, ${sql.ref(`t.${column}`)}`));
  const order = sql.join(orderBy.map((column) => sql.ref(`t.${column}`)));
  const array = sqlite
    ? sql`json_group_array(json_object(${fields}) order by ${order})`
    : sql`coalesce(json_agg(json_build_object(${fields}) order by ${order}), '[]')`;
  return sql`(select ${array} from ${sql.table(table)} as t where t.submerchant_id = s.id ${where})`;
}

/** SQLite answers JSON as text, PostgreSQL's driver parses it. */
const parsed = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : value) as T[];

/**
 * The statement is the same text on every read (only its parameters change): built and compiled once per dialect
 * and scope, since compiling its ~150 nodes cost more than running it.
 */
const readStatement = (scoped: boolean) =>
  prepared<Database, 'id' | 'merchantId', SubmerchantRow & Record<`nested_${string}`, unknown>>(
    (db, value) => {
      const sqlite = dialectOf(db) === 'sqlite';
      return db
        .selectFrom('submerchants as s')
        .selectAll('s')
        .select([
          nested(sqlite, 'submerchant_representatives', REPRESENTATIVE, ['created_at', 'id']).as(
            'nested_representatives',
          ),
          nested(sqlite, 'submerchant_addresses', ADDRESS, ['created_at', 'id']).as('nested_addresses'),
          nested(
            sqlite,
            'submerchant_documents',
            DOCUMENT,
            ['created_at', 'id'],
            sql`and t.replaced_at is null`,
          ).as('nested_documents'),
          nested(sqlite, 'submerchant_status_changes', STATUS_CHANGE, ['subject_id', 'seq']).as(
            'nested_status_changes',
          ),
        ])
        .where('s.id', '=', value('id'))
        .$if(scoped, (query) => query.where('s.merchant_id', '=', value('merchantId')))
        .$castTo<SubmerchantRow & Record<`nested_${string}`, unknown>>();
    },
  );
const statements = { scoped: readStatement(true), unscoped: readStatement(false) };

/**
 * A submerchant and everything its read shows, in one statement: the row, its representatives and addresses,
 * its current documents (oldest first) and the status histories of it and its documents. Null when it does not
 * exist or is another merchant's. The rows are those the separate queries read, column for column.
 */
export async function readSubmerchant(db: Db, id: string, scope: Scope) {
  const { rows } =
    'merchantId' in scope
      ? await statements.scoped(db, { id, merchantId: scope.merchantId })
      : await statements.unscoped(db, { id, merchantId: undefined });
  const found = rows[0];
  if (!found) return null;
  const { nested_representatives, nested_addresses, nested_documents, nested_status_changes, ...row } = found;
  return {
    row: row as SubmerchantRow,
    representatives: parsed<RepresentativeRow>(nested_representatives),
    addresses: parsed<AddressRow>(nested_addresses),
    documents: parsed<DocumentRow>(nested_documents),
    histories: groupStatusHistories(parsed<StatusChangeRow>(nested_status_changes)),
  };
}
