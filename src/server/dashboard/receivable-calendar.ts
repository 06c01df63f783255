import type { Kysely } from 'kysely';
// The answer's shape is the dashboard page's, written once for both (a type-only import: no code crosses).
import type {
  DayStatusTotal,
  ReceivableCalendar,
  ReceivableStatus,
} from '../../dashboard/src/money-summary.js';
import type { Database } from '../db/database.js';

/** The first and last day of a `YYYY-MM` month. */
function monthDays(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(last).padStart(2, '0')}` };
}

const add = (total: DayStatusTotal | undefined, count: number, net: number): DayStatusTotal => ({
  count: (total?.count ?? 0) + count,
  net_amount: (total?.net_amount ?? 0) + net,
});

/**
 * A month of a merchant's receivables by payment date and status (optionally one recipient's: the merchant's own
 * id or a submerchant's): one grouped read over the (merchant, payment date) index, whatever the month holds.
 */
export async function receivableCalendar(
  db: Kysely<Database>,
  merchantId: string,
  month: string,
  recipientId?: string,
): Promise<ReceivableCalendar> {
  const { first, last } = monthDays(month);
  let query = db
    .selectFrom('receivables')
    .select((eb) => [
      'payment_date',
      'status',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('net_amount').as('net_amount'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('payment_date', '>=', first)
    .where('payment_date', '<=', last);
  if (recipientId) query = query.where('recipient_id', '=', recipientId);
  const rows = await query.groupBy(['payment_date', 'status']).orderBy('payment_date').execute();
  const days = new Map<string, ReceivableCalendar['days'][number]>();
  const totals: ReceivableCalendar['totals'] = {};
  for (const row of rows) {
    const status: ReceivableStatus = row.status;
    const count = Number(row.count);
    const net = Number(row.net_amount);
    const day = days.get(row.payment_date) ?? { date: row.payment_date, statuses: {} };
    day.statuses[status] = add(day.statuses[status], count, net);
    days.set(row.payment_date, day);
    totals[status] = add(totals[status], count, net);
  }
  return { month, days: [...days.values()], totals };
}
