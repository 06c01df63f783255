import type { Static, TObject } from '@sinclair/typebox';
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { prepared } from '../db/prepared.js';
import { AddressSchema } from './addresses/schemas.js';
import { DocumentSchema } from './documents/schemas.js';
import { RepresentativeSchema } from './representatives/schemas.js';
import type { RequirementsInput } from './requirements.js';
import { SubmerchantDetailSchema } from './schemas.js';
import { StatusHistorySchema } from './status-history-schema.js';

/**
 * GET /v1/submerchants/:id as the database writes it: one statement per dialect builds the answer's JSON text in
 * the interface's shape (snake_case, keys in the order the response schema's serialiser writes them), so that the
 * route sends it without parsing, mapping, presenting and serialising ~17 KiB of objects again. Only `requirements` (their rules and messages are
 * written once, in requirements.ts) is computed in JavaScript, from a small extract the same statement returns.
 * A test holds the text to what the presenters and the response schema's serialiser answer, byte for byte.
 * The read runs it only when the answer stored with the submerchant is missing or stale (read-answer.ts).
 */

type Sql = RawBuilder<unknown>;
type Entries = readonly (readonly [string, Sql])[];

/** How a dialect writes JSON: compact text on both, as JSON.stringify writes it. */
interface JsonWriter {
  /** An object with these keys, in this order. */
  object(entries: Entries): Sql;
  /** The array of `element` over the rows of `source` (a FROM clause), in `order`; `[]` when there are none. */
  array(element: Sql, source: Sql, order: Sql): Sql;
  /** A column holding JSON text, as a value rather than a string. */
  jsonColumn(column: Sql): Sql;
  /** An integer 0/1 flag as false/true. */
  flag(condition: Sql): Sql;
  /** Integer hundredths as the number JavaScript writes for them: 50, 12.5, 33.33. */
  hundredths(column: Sql): Sql;
  /** The JSON as text, not parsed by the driver. */
  text(json: Sql): Sql;
}

const sqliteJson: JsonWriter = {
  object: (entries) =>
    sql`json_object(${sql.join(entries.map(([key, value]) => sql`${sql.lit(key)}, ${value}`))})`,
  // json_object embeds this subquery's array as JSON, not as a quoted string: the JSON subtype survives a scalar
  // subquery in the bundled SQLite (3.53). Wrapping it in json() parsed ~12 KiB again (+40 % of the statement's
  // time). The byte-for-byte test fails if a later SQLite quotes it.
  array: (element, source, order) =>
    sql`(select json_group_array(${element} order by ${order}) from ${source})`,
  jsonColumn: (column) => sql`json(${column})`,
  flag: (condition) => sql`json(iif(${condition}, 'true', 'false'))`,
  // Integer division when whole: SQLite writes the real 50.0 as `50.0`.
  hundredths: (column) => sql`iif(${column} % 100 = 0, ${column} / 100, ${column} / 100.0)`,
  text: (json) => json,
};

const postgresJson: JsonWriter = {
  // row_to_json writes compact text, keys in select-list order (json_build_object and json_agg add spaces).
  object: (entries) =>
    sql`(select row_to_json(o) from (select ${sql.join(entries.map(([key, value]) => sql`${value} as ${sql.id(key)}`))}) as o)`,
  array: (element, source, order) =>
    sql`(select coalesce(array_to_json(array_agg(${element} order by ${order})), '[]'::json) from ${source})`,
  jsonColumn: (column) => sql`${column}::json`,
  flag: (condition) => sql`(${condition})`,
  // float8 is written shortest-exact, as JavaScript writes numbers.
  hundredths: (column) => sql`(${column} / 100.0)::float8`,
  text: (json) => sql`(${json})::text`,
};

/** An expression for every key of a response schema: the compiler fails on a key the read does not write. */
type Columns<Schema extends TObject> = Record<keyof Static<Schema>, Sql>;

/** The schema's keys in the order its serialiser (fast-json-stringify) writes them: the required ones first. */
const serialiserOrder = (schema: TObject): string[] => {
  const required = new Set(schema.required ?? []);
  const keys = Object.keys(schema.properties);
  return [...keys.filter((key) => required.has(key)), ...keys.filter((key) => !required.has(key))];
};

const inSerialiserOrder = <Schema extends TObject>(schema: Schema, columns: Columns<Schema>): Entries =>
  serialiserOrder(schema).map((key) => [key, columns[key as keyof Static<Schema>]] as const);

/** Columns written as stored, under the same name. */
const stored = <Key extends string>(alias: string, keys: readonly Key[]) =>
  Object.fromEntries(keys.map((key) => [key, sql.ref(`${alias}.${key}`)])) as Record<Key, Sql>;

/** A status history, oldest first: `reason` only when one was given (as presentStatusChange writes it). */
function statusHistory(json: JsonWriter, subjectId: Sql): Sql {
  const columns = {
    from: sql.ref('h.from_status'),
    to: sql.ref('h.to_status'),
    actor: sql.ref('h.actor'),
    actor_id: sql.ref('h.actor_id'),
    reason: sql.ref('h.reason'),
    at: sql.ref('h.created_at'),
  } satisfies Columns<typeof StatusHistorySchema.items>;
  const withReason = inSerialiserOrder(StatusHistorySchema.items, columns);
  const entry = sql`case when h.reason is null then ${json.object(withReason.filter(([key]) => key !== 'reason'))} else ${json.object(withReason)} end`;
  return json.array(
    entry,
    sql`submerchant_status_changes as h where h.subject_id = ${subjectId}`,
    sql`h.seq`,
  );
}

function representatives(json: JsonWriter): Sql {
  const columns: Columns<typeof RepresentativeSchema> = {
    ...stored('t', [
      'id',
      'submerchant_id',
      'name',
      'document',
      'entity_type',
      'legal_name',
      'birth_date',
      'mother_name',
      'email',
      'phone',
      'role',
      'qualification',
      'review_status',
      'created_at',
      'updated_at',
    ]),
    participation_percentage: json.hundredths(sql.ref('t.participation_hundredths')),
    is_admin: json.flag(sql`t.is_admin <> 0`),
  };
  return json.array(
    json.object(inSerialiserOrder(RepresentativeSchema, columns)),
    sql`submerchant_representatives as t where t.submerchant_id = s.id`,
    sql`t.created_at, t.id`,
  );
}

function addresses(json: JsonWriter): Sql {
  const columns: Columns<typeof AddressSchema> = {
    ...stored('t', [
      'id',
      'submerchant_id',
      'street',
      'number',
      'complement',
      'neighborhood',
      'city',
      'state',
      'zip_code',
      'country',
      'type',
      'created_at',
      'updated_at',
    ]),
    is_primary: json.flag(sql`t.is_primary <> 0`),
  };
  return json.array(
    json.object(inSerialiserOrder(AddressSchema, columns)),
    sql`submerchant_addresses as t where t.submerchant_id = s.id`,
    sql`t.created_at, t.id`,
  );
}

/** The current documents, oldest first, each with its status as of `now` (effectiveDocumentStatus) and history. */
function documents(json: JsonWriter, now: Sql): Sql {
  const columns: Columns<typeof DocumentSchema> = {
    ...stored('t', [
      'id',
      'submerchant_id',
      'type',
      'legal_representative_id',
      'number',
      'file_url',
      'file_name',
      'file_size',
      'mime_type',
      'expires_at',
      'notes',
      'rejection_reason',
      'reviewed_at',
      'replaced_at',
      'replaces_document_id',
      'created_at',
      'updated_at',
    ]),
    status: sql`case when t.status in ('rejected', 'expired') then t.status when t.expires_at <= ${now} then 'expired' else t.status end`,
    current: json.flag(sql`t.replaced_at is null`),
    status_history: statusHistory(json, sql.ref('t.id')),
  };
  return json.array(
    json.object(inSerialiserOrder(DocumentSchema, columns)),
    sql`submerchant_documents as t where t.submerchant_id = s.id and t.replaced_at is null`,
    sql`t.created_at, t.id`,
  );
}

/** The submerchant and its attachments: every key of the answer's `data` but `requirements` and `status_history`. */
function submerchant(json: JsonWriter, now: Sql): Sql {
  const columns: Omit<Columns<typeof SubmerchantDetailSchema>, 'requirements' | 'status_history'> = {
    ...stored('s', [
      'id',
      'merchant_id',
      'entity_type',
      'tax_id',
      'trade_name',
      'legal_name',
      'email',
      'phone',
      'birth_date',
      'mother_name',
      'business_type',
      'average_ticket',
      'monthly_revenue',
      'mcc',
      'mcc_source',
      'status',
      'rejection_reason',
      'submitted_at',
      'reviewed_at',
      'blocked_at',
      'block_reason',
      'created_at',
      'updated_at',
    ]),
    blocked: json.flag(sql`s.blocked_at is not null`),
    // Stored as the interface writes them (JSON.stringify of `{ code, description, is_primary }` and strings).
    product_categories: json.jsonColumn(sql.ref('s.product_categories')),
    cnaes: json.jsonColumn(sql.ref('s.cnaes')),
    legal_representatives: representatives(json),
    addresses: addresses(json),
    documents: documents(json, now),
  };
  const keys = serialiserOrder(SubmerchantDetailSchema).filter(
    (key): key is keyof typeof columns => key !== 'requirements' && key !== 'status_history',
  );
  return json.object(keys.map((key) => [key, columns[key]] as const));
}

/** What computeRequirements reads, in the order the detail lists them. */
function requirementsInput(json: JsonWriter): Sql {
  const current = (table: string, keys: readonly string[], only = sql``) =>
    json.array(
      json.object(Object.entries(stored('t', keys))),
      sql`${sql.table(table)} as t where t.submerchant_id = s.id ${only}`,
      sql`t.created_at, t.id`,
    );
  return json.object([
    ['entityType', sql.ref('s.entity_type')],
    ['mcc', sql.ref('s.mcc')],
    ['representatives', current('submerchant_representatives', ['id', 'name', 'review_status'])],
    ['addressCount', sql`(select count(*) from submerchant_addresses as t where t.submerchant_id = s.id)`],
    [
      'documents',
      current(
        'submerchant_documents',
        ['id', 'type', 'legal_representative_id', 'status', 'expires_at', 'rejection_reason'],
        sql`and t.replaced_at is null`,
      ),
    ],
  ]);
}

/**
 * The answer's parts as text, and the version of its stored answer (read-answer.ts) in the same snapshot: an answer
 * stored with that version is the one these rows give. Built and compiled once per dialect (its ~400 nodes cost
 * more to compile than to run); PostgreSQL plans it once per connection (planning it cost more than running it).
 */
export const answerStatement = prepared<Database, 'id' | 'merchantId' | 'now', BuiltAnswer>((db, value) => {
  const json = dialectOf(db) === 'sqlite' ? sqliteJson : postgresJson;
  const query = sql<BuiltAnswer>`select ${json.text(submerchant(json, sql`${value('now')}`))} as head,
    ${json.text(statusHistory(json, sql.ref('s.id')))} as status_history,
    ${json.text(requirementsInput(json))} as requirements_input,
    (select a.version from submerchant_answers as a where a.submerchant_id = s.id) as answer_version
    from submerchants as s where s.id = ${value('id')} and s.merchant_id = ${value('merchantId')}`;
  return { compile: () => query.compile(db) };
});

/** The parts of the answer its statement writes, as JSON text (stored as they are by read-answer.ts). */
export interface AnswerParts {
  /** `data` as JSON text, whole; its last two keys (`requirements`, `status_history`) are not in it. */
  head: string;
  /** The submerchant's own status history. */
  status_history: string;
  /** What computeRequirements reads (but `now`). */
  requirements_input: string;
}

/** The answer's parts as its statement builds them, with the version of the stored answer they were read with. */
export interface BuiltAnswer extends AnswerParts {
  /** Null only if the submerchant has no stored answer's row (0037 gives every one a row). */
  answer_version: number | null;
}

export interface SubmerchantJson {
  /** `data` as JSON text without its last two keys (`requirements`, `status_history`) and closing brace. */
  head: string;
  /** The submerchant's own status history, JSON text. */
  statusHistory: string;
  requirementsInput: Omit<RequirementsInput, 'now'>;
}

export const submerchantJson = (parts: AnswerParts): SubmerchantJson => ({
  head: parts.head.slice(0, -1),
  statusHistory: parts.status_history,
  requirementsInput: JSON.parse(parts.requirements_input),
});
