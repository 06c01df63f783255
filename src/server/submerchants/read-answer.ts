import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { AnswerCache, holdsFor } from './answer-cache.js';
import {
  type AnswerParts,
  answerStatement,
  type BuiltAnswer,
  type SubmerchantJson,
  submerchantJson,
} from './read-json.js';
import type { RequirementsInput } from './requirements.js';

/**
 * GET /v1/submerchants/:id, the map of one read (start here; each step names its file):
 *
 *   1. routes.ts             the route calls `readSubmerchantAnswer` (below) with the request's clock.
 *   2. answer-cache.ts       this process's bodies already sent, by submerchant, with the `version` they were
 *                            built from; a hit still asks the database for the current version (step 3).
 *   3. below, `stored`       one primary-key read of `submerchant_answers`: the version and validity, and the
 *                            stored parts only when the process does not hold that version.
 *   4. read-json.ts          no usable stored answer (the first read after a write, or a shown document expired):
 *                            `answerStatement` builds the parts in one SQL statement (JSON per dialect); then
 *                            `keepAnswer` (below) stores them for the next read.
 *   5. present.ts            the route turns the parts into the body (requirements computed by requirements.ts).
 *   6. migration 0037        the invariants: one answer row per submerchant, cleared and its `version` bumped by
 *                            trigger in every writer's transaction (so every instance sharing the database sees it).
 *
 * read-query.ts is not on this path: it reads a submerchant as a domain object for services; store.ts holds
 * the row types both use.
 */

/**
 * The stored answer's version and validity, and its parts only when the caller does not already hold this version
 * (`known`): a read this process answered before costs PostgreSQL ~40 bytes sent instead of ~17 KB detoasted.
 * No row: not this merchant's submerchant, or none (the statement decides).
 */
const stored = prepared<Database, 'id' | 'merchantId' | 'known', StoredAnswer>((db, value) => {
  const known = value<number | null>('known');
  const unlessKnown = (column: string) =>
    sql<string | null>`case when version = ${known} then null else ${sql.ref(column)} end`;
  return db
    .selectFrom('submerchant_answers')
    .select(['version', 'format', 'valid_from', 'stale_after'] as const)
    .select([
      unlessKnown('head').as('head'),
      unlessKnown('status_history').as('status_history'),
      unlessKnown('requirements_input').as('requirements_input'),
    ])
    .where('submerchant_id', '=', value('id'))
    .where('merchant_id', '=', value('merchantId'));
});

interface StoredAnswer {
  version: number;
  format: string | null;
  valid_from: string | null;
  stale_after: string | null;
  head: string | null;
  status_history: string | null;
  requirements_input: string | null;
}

type StoreValue = keyof AnswerParts | 'id' | 'merchantId' | 'version' | 'format' | 'validFrom' | 'staleAfter';

// Only over the version it was built from: a write committed since then bumped it, and its answer wins.
const store = prepared<Database, StoreValue, unknown>((db, value) =>
  db
    .updateTable('submerchant_answers')
    .set({
      // The merchant the statement found it under (a change of merchant, were there one, clears the answer).
      merchant_id: value('merchantId'),
      format: value('format'),
      head: value('head'),
      status_history: value('status_history'),
      requirements_input: value('requirements_input'),
      valid_from: value('validFrom'),
      stale_after: value('staleAfter'),
    })
    .where('submerchant_id', '=', value('id'))
    .where('version', '=', value<number>('version')),
);

const formats = new WeakMap<Kysely<Database>, string>();

/** The answer statement's text on this database's dialect, hashed. */
function formatOf(db: Kysely<Database>): string {
  let format = formats.get(db);
  if (format === undefined) {
    format = createHash('sha256').update(answerStatement.text(db)).digest('base64url').slice(0, 22);
    formats.set(db, format);
  }
  return format;
}

/**
 * The request clocks an answer built at `now` holds for: until the next expiry of a document it shows as not
 * expired, and from the last expiry it already shows (a clock set back, or another instance's behind ours).
 */
export function answerValidity(documents: RequirementsInput['documents'], now: Date) {
  const at = now.toISOString();
  let validFrom: string | null = null;
  let staleAfter: string | null = null;
  for (const { status, expires_at: expiry } of documents) {
    // The statement's rule (effectiveDocumentStatus): these never change with the clock.
    if (expiry === null || status === 'rejected' || status === 'expired') continue;
    if (expiry <= at) {
      if (validFrom === null || expiry > validFrom) validFrom = expiry;
    } else if (staleAfter === null || expiry < staleAfter) staleAfter = expiry;
  }
  return { validFrom, staleAfter };
}

/** Builds the answer with its statement (read-json.ts); undefined when the merchant has no such submerchant. */
export async function buildAnswer(db: Kysely<Database>, id: string, merchantId: string, now: Date) {
  const { rows } = await answerStatement(db, { id, merchantId, now: now.toISOString() });
  return rows[0];
}

/**
 * Stores a built answer, unless a write committed since it was built (then the next read builds it again). Returns
 * the request clocks it holds for.
 */
export async function keepAnswer(
  db: Kysely<Database>,
  id: string,
  merchantId: string,
  built: BuiltAnswer,
  json: SubmerchantJson,
  now: Date,
) {
  const validity = answerValidity(json.requirementsInput.documents, now);
  if (built.answer_version !== null) {
    await store(db, {
      id,
      merchantId,
      version: built.answer_version,
      format: formatOf(db),
      head: built.head,
      status_history: built.status_history,
      requirements_input: built.requirements_input,
      ...validity,
    });
  }
  return validity;
}

/** Room for ~1,000 answers of the benchmark's size (17 KB) per app: at most ~32 MB (2 bytes a character). */
export const ANSWER_CACHE_CHARS = 16 * 1024 * 1024;

const caches = new WeakMap<Kysely<Database>, AnswerCache>();

/** This app's answers (one per database handle, so two apps in one process do not share them, as two instances). */
export function answerCache(db: Kysely<Database>): AnswerCache {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new AnswerCache(ANSWER_CACHE_CHARS);
    caches.set(db, cache);
  }
  return cache;
}

/**
 * A merchant's submerchant as the read answers it, as of `now` (documents past their `expires_at` read as
 * expired): `render` writes the response body from the statement's JSON (requirements depend on the clock only
 * through the documents' expiry, which bounds the answer's validity). Null when it does not exist or is another
 * merchant's. One round trip when this process holds the answer at the database's version; the body it sent then
 * is sent again, neither parsed nor rendered.
 */
export async function readSubmerchantAnswer(
  db: Kysely<Database>,
  id: string,
  merchantId: string,
  now: Date,
  render: (json: SubmerchantJson) => string,
): Promise<string | null> {
  const at = now.toISOString();
  const cache = answerCache(db);
  const cached = cache.get(id);
  const known = cached?.merchantId === merchantId && holdsFor(cached, at) ? cached : undefined;
  const {
    rows: [row],
  } = await stored(db, { id, merchantId, known: known?.version ?? null });
  if (known && row?.version === known.version) return known.text;
  if (row && isStored(row) && row.format === formatOf(db)) {
    const validity = { validFrom: row.valid_from, staleAfter: row.stale_after };
    if (holdsFor(validity, at)) {
      const text = render(submerchantJson(row));
      cache.set(id, { merchantId, version: row.version, ...validity, text });
      return text;
    }
  }
  const built = await buildAnswer(db, id, merchantId, now);
  if (!built) return null;
  const json = submerchantJson(built);
  const validity = await keepAnswer(db, id, merchantId, built, json, now);
  const text = render(json);
  if (built.answer_version !== null)
    cache.set(id, { merchantId, version: built.answer_version, ...validity, text });
  return text;
}

const isStored = (row: StoredAnswer): row is StoredAnswer & AnswerParts =>
  row.head !== null && row.status_history !== null && row.requirements_input !== null;
