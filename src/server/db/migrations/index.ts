import type { Migration } from 'kysely';
import m0001 from './0001_merchants.js';
import m0002 from './0002_operator_keys.js';
import m0003 from './0003_events.js';
import m0004 from './0004_fraud_sessions.js';
import m0005 from './0005_card_tokens.js';
import m0006 from './0006_charges.js';
import m0007 from './0007_submerchants.js';
import m0008 from './0008_webhooks.js';
import m0010 from './0010_fraud_signals_evidence.js';
import m0012 from './0012_card_velocity_locks.js';
import m0016 from './0016_spec_document_types_and_representative_review.js';
import m0017 from './0017_charge_submerchant.js';
import m0018 from './0018_merchant_sdk_settings.js';
import m0020 from './0020_rate_limit_counters_unlogged.js';
import m0022 from './0022_dashboard_users.js';
import m0023 from './0023_dashboard_sessions.js';
import m0024 from './0024_webhook_fair_claims.js';
import m0025 from './0025_rolled_keys.js';
import m0026 from './0026_fraud_session_reuse_refusals.js';
import m0027 from './0027_charges_search_fts.js';
import m0028 from './0028_charges_search_trgm.js';
import m0029 from './0029_submerchant_archive.js';
import m0031 from './0031_merchant_public_key.js';
import m0032 from './0032_charges_range_pg.js';
import m0033 from './0033_charges_velocity_by_card.js';
import m0037 from './0037_submerchant_answers.js';
import m0039 from './0039_charges_search_by_day.js';
import m0043 from './0043_charges_search_days_pg.js';
import m0044 from './0044_fraud_session_challenge.js';
import m0045 from './0045_fraud_request_headers.js';
import m0046 from './0046_fraud_session_behavior.js';
import m0047 from './0047_device_graph.js';
import m0048 from './0048_dashboard_user_controls.js';
import m0049 from './0049_dashboard_audit.js';
import m0050 from './0050_charge_acquirer_reference.js';
import m0051 from './0051_charge_review.js';
import m0052 from './0052_disputes_and_labels.js';
import m0053 from './0053_ledger.js';
import m0054 from './0054_merchant_pricing.js';
import m0055 from './0055_receivables.js';
import m0056 from './0056_charge_split.js';
import m0058 from './0058_bank_accounts.js';
import m0060 from './0060_charges_without_card.js';
import m0061 from './0061_charge_pix_boleto.js';
import m0064 from './0064_dashboard_user_language.js';
import m0065 from './0065_anticipations.js';
import m0066 from './0066_receivables_anticipatable.js';
import m0067 from './0067_withdrawals.js';
import m0068 from './0068_ledger_transactions_source.js';
import m0069 from './0069_receivable_counts.js';
import m0070 from './0070_submerchant_block.js';
import m0071 from './0071_anticipatable_dates.js';
import m0072 from './0072_receivable_day_counts.js';

/**
 * Applied in name order. A migration that has been applied anywhere is frozen: a change to the schema is a new
 * file with the next number, importing only kysely, never code of the service.
 */
export const migrations: Record<string, Migration> = {
  '0001_merchants': m0001,
  '0002_operator_keys': m0002,
  '0003_events': m0003,
  '0004_fraud_sessions': m0004,
  '0005_card_tokens': m0005,
  '0006_charges': m0006,
  '0007_submerchants': m0007,
  '0008_webhooks': m0008,
  '0010_fraud_signals_evidence': m0010,
  '0012_card_velocity_locks': m0012,
  '0016_spec_document_types_and_representative_review': m0016,
  '0017_charge_submerchant': m0017,
  '0018_merchant_sdk_settings': m0018,
  '0020_rate_limit_counters_unlogged': m0020,
  '0022_dashboard_users': m0022,
  '0023_dashboard_sessions': m0023,
  '0024_webhook_fair_claims': m0024,
  '0025_rolled_keys': m0025,
  '0026_fraud_session_reuse_refusals': m0026,
  '0027_charges_search_fts': m0027,
  '0028_charges_search_trgm': m0028,
  '0029_submerchant_archive': m0029,
  '0031_merchant_public_key': m0031,
  '0032_charges_range_pg': m0032,
  '0033_charges_velocity_by_card': m0033,
  '0037_submerchant_answers': m0037,
  '0039_charges_search_by_day': m0039,
  '0043_charges_search_days_pg': m0043,
  '0044_fraud_session_challenge': m0044,
  '0045_fraud_request_headers': m0045,
  '0046_fraud_session_behavior': m0046,
  '0047_device_graph': m0047,
  '0048_dashboard_user_controls': m0048,
  '0049_dashboard_audit': m0049,
  '0050_charge_acquirer_reference': m0050,
  '0051_charge_review': m0051,
  '0052_disputes_and_labels': m0052,
  '0053_ledger': m0053,
  '0054_merchant_pricing': m0054,
  '0055_receivables': m0055,
  '0056_charge_split': m0056,
  '0058_bank_accounts': m0058,
  '0060_charges_without_card': m0060,
  '0061_charge_pix_boleto': m0061,
  '0064_dashboard_user_language': m0064,
  '0065_anticipations': m0065,
  '0066_receivables_anticipatable': m0066,
  '0067_withdrawals': m0067,
  '0068_ledger_transactions_source': m0068,
  '0069_receivable_counts': m0069,
  '0070_submerchant_block': m0070,
  '0071_anticipatable_dates': m0071,
  '0072_receivable_day_counts': m0072,
};
