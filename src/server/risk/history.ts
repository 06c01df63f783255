import { type ExpressionBuilder, type Kysely, type QueryCreator, sql } from 'kysely';
import {
  jsonArrayFrom as postgresJsonArrayFrom,
  jsonObjectFrom as postgresJsonObjectFrom,
} from 'kysely/helpers/postgres';
import {
  jsonArrayFrom as sqliteJsonArrayFrom,
  jsonObjectFrom as sqliteJsonObjectFrom,
} from 'kysely/helpers/sqlite';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { prepared } from '../db/prepared.js';
import type { FraudSession } from '../fraud/service.js';
import { deviceOf, sameOsFamily, sessionUserAgent } from './device.js';
import { type DeviceGraphEntry, recordDeviceGraph } from './device-graph.js';
import type { MerchantRiskThresholds, RiskPolicy } from './policy.js';
import { normalizeIp } from './rules/ip-mismatch.js';
import type { FraudLabelsTable } from './table.js';
import type { DeviceGraphLinks, RiskInput, VisitorLinks } from './types.js';

const minutesBefore = (now: Date, minutes: number) =>
  new Date(now.getTime() - minutes * 60_000).toISOString();

// Enough rows to count past any threshold a merchant would set, bounded so that a farmed id costs little.
const LINK_ROWS = 200;
// The graph's rules need one disagreeing row, or a handful of cards and merchants within the hour: the newest 50
// of a device's rows hold them; a device charged more often than that is already past every velocity rule.
const GRAPH_ROWS = 50;

interface LinkedCharge {
  card_hash: string | null;
  customer_document: string;
  customer_email: string;
}

interface LinkedSession {
  observed_ip_address: string;
  observed_user_agent: string | null;
}

/** SQLite answers a JSON array as text, PostgreSQL's driver parses it. */
const parsed = <T>(value: unknown): T[] =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];

type CardValue = 'merchantId' | 'cardHash' | 'cardSince' | LabelValue;
/** The keyed hashes fraud labels are matched by (risk/labels.ts); a null one matches nothing. */
type LabelValue = 'labelCardKey' | 'labelBuyerKey' | 'labelVisitorKey';
type GraphValue =
  | 'visitorKey'
  | 'merchantKey'
  | 'buyerKey'
  | 'cardKey'
  | 'componentsDigest'
  | 'graphSince'
  | 'sharedSince'
  | 'graphVelocitySince'
  | 'graphRows'
  | 'now';
type DeviceValue =
  | CardValue
  | GraphValue
  | 'visitorId'
  | 'deviceSince'
  | 'linkedSince'
  | 'sessionId'
  | 'linkRows';

/** The device's earlier rows in the platform-wide graph, counted (risk/device-graph.ts). */
interface GraphCounts {
  other_components: number;
  other_merchant_buyer_and_card: number;
  other_recent_merchants: number;
  other_recent_cards: number;
}

interface RiskReadRow {
  review_threshold: number | null;
  decline_threshold: number | null;
  card_charges: number;
  /** true/false on PostgreSQL, 1/0 on SQLite. */
  fraud_label_here: boolean | number;
  fraud_label_elsewhere: boolean | number;
  device_charges?: number;
  linked_charges?: unknown;
  linked_sessions?: unknown;
  device_graph?: unknown;
}

/**
 * The merchant of a card's or device's rows, compared as a filter rather than an index condition: the reads are
 * then served by the card / visitor index (migration 0033) whatever PostgreSQL's statistics say, never by a scan
 * of the merchant's charges in the window (the same predicate; `|| ''` only hides the column from the planner's
 * index matching, on both dialects).
 */
const merchantFilter = sql<string>`merchant_id || ''`;

/**
 * What the risk step reads, in one statement (one round trip on PostgreSQL), prepared (db/prepared.ts): the
 * merchant's thresholds, the recent charges of the card and of the device, whether the card, buyer or device
 * carries a fraud label here or at another merchant, the device's links (its charges'
 * cards and buyers, its other sessions' sources) as JSON arrays, and what the platform-wide device graph holds of
 * it (every merchant's rows, counted), adding this charge to the graph. Without a device, only the thresholds and
 * the card's count.
 */
function riskReadStatement(
  db: Kysely<Database>,
  value: <T = string>(name: DeviceValue) => T,
  withDevice: boolean,
) {
  const merchantId = value('merchantId');
  const postgres = dialectOf(db) === 'postgres';
  const jsonArrayFrom = postgres ? postgresJsonArrayFrom : sqliteJsonArrayFrom;
  const jsonObjectFrom = postgres ? postgresJsonObjectFrom : sqliteJsonObjectFrom;
  // PostgreSQL adds the charge to the graph in the same statement (a writable CTE: the reads below share its
  // snapshot, so they count only the earlier rows); SQLite in the next one (recentHistory), which costs no round trip.
  const creator: QueryCreator<Database> =
    withDevice && postgres
      ? (db.with('recorded', (cte) =>
          cte.insertInto('device_graph').values({
            visitor_key: value('visitorKey'),
            merchant_key: value('merchantKey'),
            buyer_key: value('buyerKey'),
            card_key: value('cardKey'),
            components_digest: value('componentsDigest'),
            created_at: value('now'),
          }),
        ) as unknown as QueryCreator<Database>)
      : db;
  return creator.selectNoFrom((eb) => {
    const threshold = (column: 'review_threshold' | 'decline_threshold') =>
      eb.selectFrom('merchant_risk_settings').select(column).where('merchant_id', '=', merchantId);
    const countSince = (column: 'card_hash' | 'visitor_id', value: string, since: string) =>
      eb
        .selectFrom('charges')
        .select((count) => count.fn.countAll<number>().as('count'))
        .where(column, '=', value)
        .where('created_at', '>=', since)
        .where(merchantFilter, '=', merchantId);
    const always = [
      threshold('review_threshold').as('review_threshold'),
      threshold('decline_threshold').as('decline_threshold'),
      countSince('card_hash', value('cardHash'), value('cardSince')).as('card_charges'),
      fraudLabelExists(eb, value, '=').as('fraud_label_here'),
      fraudLabelExists(eb, value, '<>').as('fraud_label_elsewhere'),
    ];
    if (!withDevice) return always;
    const visitorId = value('visitorId');
    const linkedSince = value('linkedSince');
    return [
      ...always,
      countSince('visitor_id', visitorId, value('deviceSince')).as('device_charges'),
      jsonArrayFrom(
        eb
          .selectFrom('charges')
          .select(['card_hash', 'customer_document', 'customer_email'])
          .where('visitor_id', '=', visitorId)
          .where('created_at', '>=', linkedSince)
          .where(merchantFilter, '=', merchantId)
          .limit(value<number>('linkRows')),
      ).as('linked_charges'),
      jsonArrayFrom(
        eb
          .selectFrom('fraud_sessions')
          .select(['observed_ip_address', 'observed_user_agent'])
          .where('visitor_id', '=', visitorId)
          .where('created_at', '>=', linkedSince)
          .where(merchantFilter, '=', merchantId)
          .where('id', '!=', value('sessionId'))
          .limit(value<number>('linkRows')),
      ).as('linked_sessions'),
      jsonObjectFrom(graphCounts(eb, value)).as('device_graph'),
    ];
  });
}

/**
 * Whether a fraud label of the card, buyer or device exists at this merchant (`=`) or at another one (`<>`). Only
 * the two facts leave the database: never which merchant, charge or value matched. The IP is kept on labels but
 * not matched: carrier-grade NAT puts many honest buyers behind one address (docs/decisions/fraud-labels.md).
 */
function fraudLabelExists(
  eb: ExpressionBuilder<Database, never>,
  value: <T = string>(name: DeviceValue) => T,
  merchant: '=' | '<>',
) {
  return eb.exists(
    eb
      .selectFrom('fraud_labels')
      .select(eb.lit(1).as('found'))
      .where('label', '=', sql.lit<FraudLabelsTable['label']>('fraud'))
      .where('merchant_id', merchant, value('merchantId'))
      .where((match) =>
        match.or([
          match('card_key', '=', value('labelCardKey')),
          match('buyer_key', '=', value('labelBuyerKey')),
          match('visitor_key', '=', value('labelVisitorKey')),
        ]),
      ),
  );
}

/**
 * The device's earlier rows in the platform-wide graph (every merchant's), the newest 50 of its window, counted
 * in the database so that only four numbers travel: rows with other stable components, rows at another merchant
 * with another buyer and another card (sharing window), and the other merchants and cards of the velocity window.
 * A null digest (a report without components) compares as unknown, never as different.
 */
function graphCounts(eb: ExpressionBuilder<Database, never>, value: <T = string>(name: DeviceValue) => T) {
  const merchantKey = value('merchantKey');
  const cardKey = value('cardKey');
  const velocitySince = value('graphVelocitySince');
  return eb
    .selectFrom(
      eb
        .selectFrom('device_graph')
        .select(['merchant_key', 'buyer_key', 'card_key', 'components_digest', 'created_at'])
        .where('visitor_key', '=', value('visitorKey'))
        .where('created_at', '>=', value('graphSince'))
        .orderBy('created_at', 'desc')
        .limit(value<number>('graphRows'))
        .as('recent'),
    )
    .select([
      sql<number>`count(case when components_digest <> ${value('componentsDigest')} then 1 end)`.as(
        'other_components',
      ),
      sql<number>`count(case when created_at >= ${value('sharedSince')} and merchant_key <> ${merchantKey}
        and buyer_key <> ${value('buyerKey')} and card_key <> ${cardKey} then 1 end)`.as(
        'other_merchant_buyer_and_card',
      ),
      sql<number>`count(distinct case when created_at >= ${velocitySince} and merchant_key <> ${merchantKey}
        then merchant_key end)`.as('other_recent_merchants'),
      sql<number>`count(distinct case when created_at >= ${velocitySince} and card_key <> ${cardKey}
        then card_key end)`.as('other_recent_cards'),
    ]);
}

const riskReadsOfCard = prepared<Database, CardValue, RiskReadRow>((db, value) =>
  // The card's statement names none of the device's values.
  riskReadStatement(db, value as <T = string>(name: DeviceValue) => T, false),
);
const riskReadsOfDevice = prepared<Database, DeviceValue, RiskReadRow>((db, value) =>
  riskReadStatement(db, value, true),
);

/**
 * The merchant's risk thresholds (null: the defaults) and its recent charges of this card and this device,
 * whatever their outcome (a run of declines is what card testing looks like), with what the device was linked
 * with (`visitorLinks`). Per merchant: one merchant's buyers do not count against another's. The exception is the
 * platform-wide device graph, read as bare facts (`graphLinks`) and added to with this charge's entry (whatever
 * the outcome: a declined attempt is what the graph must remember). Run it in the charge's transaction, after the
 * card's lock (charges/consume.ts), so that parallel charges of a card count in turn.
 */
export async function recentHistory(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    /** Null without a card (PIX, boleto): no card count, no card links. */
    cardHash: string | null;
    customer: { document: string; email: string };
    session: FraudSession;
    now: Date;
    /** The charge's entry in the device graph (null without a device): its earlier rows are read. */
    graph: DeviceGraphEntry | null;
    /** The windows (velocity, linking, graph) are the policy's, whatever the merchant's thresholds. */
    windows: Pick<RiskPolicy, 'velocity' | 'linking' | 'graph'>;
    /** The charge's card, buyer and device as fraud labels key them (risk/labels.ts). */
    labelKeys: Pick<FraudLabelsTable, 'card_key' | 'buyer_key' | 'visitor_key'>;
  },
): Promise<{ thresholds: MerchantRiskThresholds | null; history: RiskInput['history'] }> {
  const { merchantId, now } = input;
  const visitorId = input.session.signals?.visitorId ?? null;
  const { velocity, linking, graph } = input.windows;
  const card = {
    merchantId,
    cardHash: input.cardHash,
    cardSince: minutesBefore(now, velocity.card.windowMinutes),
    labelCardKey: input.labelKeys.card_key,
    labelBuyerKey: input.labelKeys.buyer_key,
    labelVisitorKey: input.labelKeys.visitor_key,
  };
  const entry = input.graph;
  const { rows } =
    visitorId === null || entry === null
      ? await riskReadsOfCard(db, card)
      : await riskReadsOfDevice(db, {
          ...card,
          visitorId,
          deviceSince: minutesBefore(now, velocity.device.windowMinutes),
          linkedSince: minutesBefore(now, linking.windowMinutes),
          sessionId: input.session.id,
          linkRows: LINK_ROWS,
          visitorKey: entry.visitor_key,
          merchantKey: entry.merchant_key,
          buyerKey: entry.buyer_key,
          cardKey: entry.card_key,
          componentsDigest: entry.components_digest,
          graphSince: minutesBefore(now, graph.windowMinutes),
          sharedSince: minutesBefore(now, graph.sharedMinutes),
          graphVelocitySince: minutesBefore(now, graph.velocityMinutes),
          graphRows: GRAPH_ROWS,
          now: now.toISOString(),
        });
  if (entry !== null && dialectOf(db) !== 'postgres') await recordDeviceGraph(db, entry, now);
  const read = rows[0]!;
  const thresholds =
    read.review_threshold === null || read.decline_threshold === null
      ? null
      : { review: Number(read.review_threshold), decline: Number(read.decline_threshold) };
  const cardCharges = input.cardHash === null ? null : Number(read.card_charges);
  const labels = {
    here: Number(read.fraud_label_here) === 1,
    elsewhere: Number(read.fraud_label_elsewhere) === 1,
  };
  if (visitorId === null || entry === null)
    return { thresholds, history: { cardCharges, deviceCharges: null, visitor: null, graph: null, labels } };
  const visitor = visitorLinks(input, {
    charges: parsed<LinkedCharge>(read.linked_charges),
    sessions: parsed<LinkedSession>(read.linked_sessions),
  });
  return {
    thresholds,
    history: {
      cardCharges,
      deviceCharges: Number(read.device_charges),
      visitor,
      graph: graphLinks(read.device_graph, input.cardHash === null),
      labels,
    },
  };
}

/** The graph's counts as the rules read them, this charge's merchant and card included in the velocity counts. */
function graphLinks(value: unknown, cardless: boolean): DeviceGraphLinks {
  const counts = (typeof value === 'string' ? JSON.parse(value) : value) as GraphCounts;
  return {
    otherComponents: Number(counts.other_components) > 0,
    otherMerchantBuyerAndCard: Number(counts.other_merchant_buyer_and_card) > 0,
    recentMerchants: Number(counts.other_recent_merchants) + 1,
    recentCards: cardless ? null : Number(counts.other_recent_cards) + 1,
  };
}

/**
 * What this device (visitor id) was seen with in the merchant's linking window: distinct cards and buyers of
 * its charges, source IPs of its sessions, and whether another session carried it from another engine or OS.
 */
function visitorLinks(
  input: { cardHash: string | null; customer: { document: string; email: string }; session: FraudSession },
  linked: { charges: LinkedCharge[]; sessions: LinkedSession[] },
): VisitorLinks {
  const { charges, sessions } = linked;
  const distinct = (values: string[]) => new Set(values).size;
  const device = deviceOf(sessionUserAgent(input.session));
  const otherDevice = sessions.some((other) => {
    const seen = deviceOf(other.observed_user_agent);
    return (
      (seen.engine !== null && device.engine !== null && seen.engine !== device.engine) ||
      (seen.os !== null && device.os !== null && !sameOsFamily(seen.os, device.os))
    );
  });
  return {
    // The device's earlier PIX and boleto charges have no card; a charge without one counts none.
    cards:
      input.cardHash === null
        ? null
        : distinct([input.cardHash, ...charges.flatMap((charge) => charge.card_hash ?? [])]),
    buyers: Math.max(
      distinct([input.customer.document, ...charges.map((charge) => charge.customer_document)]),
      distinct([input.customer.email, ...charges.map((charge) => charge.customer_email)].map(lower)),
    ),
    ips: distinct(
      [input.session.observed.ipAddress, ...sessions.map((other) => other.observed_ip_address)].map(
        normalizeIp,
      ),
    ),
    otherDevice,
  };
}

const lower = (text: string) => text.trim().toLowerCase();
