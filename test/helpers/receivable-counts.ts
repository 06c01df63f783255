import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Database } from '../../src/server/db/database.js';
import { RECEIVABLE_STATUSES } from '../../src/server/receivables/rules.js';

/**
 * Where the counts the store keeps (migrations 0069 and 0072) differ from counting the receivables: per recipient,
 * per payment day and per creation day, each also for all recipients (`recipient_id = ''`). A kept row of zeros
 * may stay where no receivable is left. On PostgreSQL, every change staged for a commit must have been applied.
 * Empty when every count is exact.
 */
export async function keptCountsDrift(db: Kysely<Database>): Promise<string[]> {
  const drift: string[] = [];
  const sums = RECEIVABLE_STATUSES.map(
    (status) => `sum(case when status = '${status}' then 1 else 0 end) as ${status}`,
  ).join(', ');
  const numbers = (row: Record<string, unknown>) => RECEIVABLE_STATUSES.map((status) => Number(row[status]));
  // Each table, the column of the day its rows count (none for the recipients') and that day of a receivable.
  for (const [table, column, day] of [
    ['receivable_counts', "''", "''"],
    ['receivable_payment_day_counts', 'payment_date', 'payment_date'],
    ['receivable_creation_day_counts', 'created_on', 'substr(created_at, 1, 10)'],
  ] as const) {
    const byDay = sql.raw(column === "''" ? '' : `, ${day}`);
    const real = await sql<Record<string, unknown>>`
      select merchant_id, '' as recipient_id, ${sql.raw(day)} as day, ${sql.raw(sums)} from receivables
        group by merchant_id${byDay}
      union all
      select merchant_id, recipient_id, ${sql.raw(day)} as day, ${sql.raw(sums)} from receivables
        group by merchant_id, recipient_id${byDay}`.execute(db);
    const kept = await sql<
      Record<string, unknown>
    >`select merchant_id, recipient_id, ${sql.raw(column)} as day,
      ${sql.raw(RECEIVABLE_STATUSES.join(', '))} from ${sql.raw(table)}`.execute(db);
    const key = (row: Record<string, unknown>) =>
      `${table} ${row.merchant_id}/${row.recipient_id}/${row.day}`;
    const counted = new Map(real.rows.map((row) => [key(row), numbers(row).join(',')]));
    for (const row of kept.rows) {
      const expected = counted.get(key(row)) ?? RECEIVABLE_STATUSES.map(() => 0).join(',');
      if (numbers(row).join(',') !== expected)
        drift.push(`${key(row)}: kept ${numbers(row)}, counted ${expected}`);
      counted.delete(key(row));
    }
    for (const [missing, expected] of counted) drift.push(`${missing}: not kept, counted ${expected}`);
  }
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    const staged = await sql<{
      count: string;
    }>`select count(*) as count from receivable_count_changes`.execute(db);
    if (Number(staged.rows[0]!.count) !== 0)
      drift.push(`${staged.rows[0]!.count} changes staged after commit`);
  }
  return drift;
}
