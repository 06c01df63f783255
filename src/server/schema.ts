import type { Migration } from 'kysely';
import { chargesMigration } from './charges/migration.js';
import type { ChargesTable, MerchantRiskSettingsTable } from './charges/table.js';
import type { IdempotencyKeysTable } from './core/idempotency.js';
import type { Store } from './db/connect.js';
import { type EventsTable, eventsMigration } from './events/outbox.js';
import { fraudSessionsMigration } from './fraud/migration.js';
import type { FraudSessionsTable } from './fraud/table.js';
import { merchantsMigration } from './merchants/migration.js';
import type { MerchantsTable } from './merchants/table.js';
import { type OperatorKeysTable, operatorKeysMigration } from './operators/keys.js';
import { submerchantsMigration } from './submerchants/migration.js';
import type {
  SubmerchantAddressesTable,
  SubmerchantDocumentsTable,
  SubmerchantRepresentativesTable,
  SubmerchantStatusChangesTable,
  SubmerchantsTable,
} from './submerchants/tables.js';
import { cardTokensMigration } from './tokens/migration.js';
import type { CardTokensTable } from './tokens/table.js';
import { webhooksMigration } from './webhooks/migration.js';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './webhooks/table.js';

/** Every table of the service; each resource owns its table types and migration. */
export interface Database {
  merchants: MerchantsTable;
  operator_keys: OperatorKeysTable;
  events: EventsTable;
  fraud_sessions: FraudSessionsTable;
  card_tokens: CardTokensTable;
  charges: ChargesTable;
  idempotency_keys: IdempotencyKeysTable;
  merchant_risk_settings: MerchantRiskSettingsTable;
  submerchants: SubmerchantsTable;
  submerchant_representatives: SubmerchantRepresentativesTable;
  submerchant_documents: SubmerchantDocumentsTable;
  submerchant_addresses: SubmerchantAddressesTable;
  submerchant_status_changes: SubmerchantStatusChangesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** Applied in name order; append, never reorder or edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_merchants': merchantsMigration,
  '0002_operator_keys': operatorKeysMigration,
  '0003_events': eventsMigration,
  '0004_fraud_sessions': fraudSessionsMigration,
  '0005_card_tokens': cardTokensMigration,
  '0006_charges': chargesMigration,
  '0007_submerchants': submerchantsMigration,
  '0008_webhooks': webhooksMigration,
};

export type VigiaStore = Store<Database>;
