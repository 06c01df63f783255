import type { AnticipatableDatesTable, AnticipationsTable } from '../anticipations/table.js';
import type { BankAccountsTable } from '../bank-accounts/table.js';
import type {
  ChargeBoletoTable,
  ChargeLatePaymentsTable,
  ChargePixTable,
  ChargesTable,
} from '../charges/table.js';
import type { IdempotencyKeysTable } from '../core/idempotency.js';
import type { DashboardAuditTable, DashboardSessionsTable, DashboardUsersTable } from '../dashboard/table.js';
import type { DisputesTable } from '../disputes/table.js';
import type { FraudSessionReuseRefusalsTable, FraudSessionsTable } from '../fraud/table.js';
import type { LedgerPostingsTable, LedgerTransactionsTable, WalletsTable } from '../ledger/table.js';
import type { MerchantPreviousKeysTable, MerchantsTable } from '../merchants/table.js';
import type { OperatorKeysTable } from '../operators/table.js';
import type { MerchantPricingTable } from '../pricing/table.js';
import type {
  ReceivableCountsTable,
  ReceivableCreationDayCountsTable,
  ReceivablePaymentDayCountsTable,
  ReceivablesTable,
} from '../receivables/table.js';
import type {
  CardVelocityLocksTable,
  DeviceGraphTable,
  FraudLabelsTable,
  MerchantRiskSettingsTable,
} from '../risk/table.js';
import type {
  SubmerchantAddressesTable,
  SubmerchantAnswersTable,
  SubmerchantDocumentsArchiveTable,
  SubmerchantDocumentsTable,
  SubmerchantRepresentativesArchiveTable,
  SubmerchantRepresentativesTable,
  SubmerchantStatusChangesTable,
  SubmerchantsTable,
} from '../submerchants/table.js';
import type { CardTokensTable } from '../tokens/table.js';
import type {
  EventsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from '../webhooks/table.js';
import type { WithdrawalReceivablesTable, WithdrawalsTable } from '../withdrawals/table.js';
import type { Store } from './connect.js';

/** Every table of the service (type imports only: each resource owns its table type; migrations are in ./migrations). */
export interface Database {
  merchants: MerchantsTable;
  merchant_previous_keys: MerchantPreviousKeysTable;
  operator_keys: OperatorKeysTable;
  events: EventsTable;
  fraud_sessions: FraudSessionsTable;
  fraud_session_reuse_refusals: FraudSessionReuseRefusalsTable;
  card_tokens: CardTokensTable;
  charges: ChargesTable;
  charge_pix: ChargePixTable;
  charge_boleto: ChargeBoletoTable;
  charge_late_payments: ChargeLatePaymentsTable;
  card_velocity_locks: CardVelocityLocksTable;
  device_graph: DeviceGraphTable;
  fraud_labels: FraudLabelsTable;
  disputes: DisputesTable;
  idempotency_keys: IdempotencyKeysTable;
  merchant_risk_settings: MerchantRiskSettingsTable;
  submerchants: SubmerchantsTable;
  submerchant_representatives: SubmerchantRepresentativesTable;
  submerchant_documents: SubmerchantDocumentsTable;
  submerchant_addresses: SubmerchantAddressesTable;
  submerchant_status_changes: SubmerchantStatusChangesTable;
  submerchant_representatives_archive: SubmerchantRepresentativesArchiveTable;
  submerchant_documents_archive: SubmerchantDocumentsArchiveTable;
  submerchant_answers: SubmerchantAnswersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_audit: DashboardAuditTable;
  bank_accounts: BankAccountsTable;
  wallets: WalletsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_postings: LedgerPostingsTable;
  merchant_pricing: MerchantPricingTable;
  receivables: ReceivablesTable;
  receivable_counts: ReceivableCountsTable;
  receivable_payment_day_counts: ReceivablePaymentDayCountsTable;
  receivable_creation_day_counts: ReceivableCreationDayCountsTable;
  anticipations: AnticipationsTable;
  anticipatable_dates: AnticipatableDatesTable;
  withdrawals: WithdrawalsTable;
  withdrawal_receivables: WithdrawalReceivablesTable;
}

export type VigiaStore = Store<Database>;
