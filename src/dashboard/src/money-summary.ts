/**
 * What the dashboard's money views answer (src/server/dashboard/balances.ts, receivable-calendar.ts) and its pages
 * draw (Home, Receivables). One definition for both bundles; types only. Amounts in centavos.
 */

export interface Balances {
  available: number;
  waiting_funds: number;
  in_transit: number;
  blocked: number;
}

/** GET /dashboard/api/balances: the merchant's own wallet, and its submerchants' wallets added up. */
export interface BalancesSummary {
  merchant: Balances & { wallet_id: string; updated_at: string };
  submerchants: Balances & { wallets: number };
}

export const RECEIVABLE_STATUSES = ['waiting_funds', 'paid', 'prepaid', 'canceled', 'suspended'] as const;
export type ReceivableStatus = (typeof RECEIVABLE_STATUSES)[number];

/** Receivables of one status on one day: how many, and their net (negative ones, refunds, included). */
export interface DayStatusTotal {
  count: number;
  net_amount: number;
}

/** GET /dashboard/api/receivables/calendar?month=YYYY-MM: the month's receivables by payment date and status. */
export interface ReceivableCalendar {
  /** `YYYY-MM`. */
  month: string;
  /** Only the days that have receivables, in order. */
  days: { date: string; statuses: Partial<Record<ReceivableStatus, DayStatusTotal>> }[];
  totals: Partial<Record<ReceivableStatus, DayStatusTotal>>;
}
