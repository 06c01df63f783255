import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import {
  type AnswerParts,
  answerStatement,
  type BuiltAnswer,
  type SubmerchantJson,
  submerchantJson,
} from './read-json.js';
import type { RequirementsInput } from './requirements.js';

/**
 * GET /v1/submerchants/:id reads the answer stored with the submerchant (one primary-key read of text) and builds
 * it with its statement (read-json.ts) only when there is none for this request's clock: the first read after a
 * write, or after a document it shows expired. Migration 0037 holds the invariants: one row per submerchant,
 * whose answer every write to what it shows clears and whose `version` it bumps, in the writer's transaction, by
 * trigger (so every instance sharing the database sees it).
 */

/** The stored answer, if there is one for this request's clock and statement. */
const stored = prepared<Database, 'id' | 'merchantId' | 'format' | 'now', AnswerParts>((db, value) =>
  db
    .selectFrom('submerchant_answers')
    .select(['head', 'status_history', 'requirements_input'] as const)
    .$narrowType<AnswerParts>()
    .where('submerchant_id', '=', value('id'))
    .where('merchant_id', '=', value('merchantId'))
    .where('format', '=', value('format'))
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', value('now'))]))
    .where((eb) => eb.or([eb('stale_after', 'is', null), eb('stale_after', '>', value('now'))])),
);

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

/** Stores a built answer, unless a write committed since it was built (then the next read builds it again). */
export async function keepAnswer(
  db: Kysely<Database>,
  id: string,
  merchantId: string,
  built: BuiltAnswer,
  json: SubmerchantJson,
  now: Date,
) {
  if (built.answer_version === null) return;
  await store(db, {
    id,
    merchantId,
    version: built.answer_version,
    format: formatOf(db),
    head: built.head,
    status_history: built.status_history,
    requirements_input: built.requirements_input,
    ...answerValidity(json.requirementsInput.documents, now),
  });
}

/**
 * A merchant's submerchant as the read answers it, as of `now` (documents past their `expires_at` read as
 * expired). Null when it does not exist or is another merchant's.
 */
export async function readSubmerchantJson(
  db: Kysely<Database>,
  id: string,
  merchantId: string,
  now: Date,
): Promise<SubmerchantJson | null> {
  const { rows } = await stored(db, { id, merchantId, format: formatOf(db), now: now.toISOString() });
  if (rows[0]) return submerchantJson(rows[0]);
  const built = await buildAnswer(db, id, merchantId, now);
  if (!built) return null;
  const json = submerchantJson(built);
  await keepAnswer(db, id, merchantId, built, json, now);
  return json;
}
