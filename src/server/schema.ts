import type { Migration } from 'kysely';
import type { Store } from './db/connect.js';
import { type EventsTable, eventsMigration } from './events/outbox.js';
import { merchantsMigration } from './merchants/migration.js';
import type { MerchantsTable } from './merchants/table.js';
import { type OperatorKeysTable, operatorKeysMigration } from './operators/keys.js';

/** Every table of the service; each resource owns its table types and migration. */
export interface Database {
  merchants: MerchantsTable;
  operator_keys: OperatorKeysTable;
  events: EventsTable;
}

/** Applied in name order; append, never reorder or edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_merchants': merchantsMigration,
  '0002_operator_keys': operatorKeysMigration,
  '0003_events': eventsMigration,
};

export type VigiaStore = Store<Database>;
