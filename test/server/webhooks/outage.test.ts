// An attempt's outcome that cannot be recorded because the database is away for a moment (PostgreSQL refusing
// connections, SQLite locked past its busy timeout, its disk full) is recorded once the database is back: the
// delivery is not left leased for a minute and then sent a second time.
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

/** Makes the database refuse attempt rows as an unavailable database does, until the returned function runs. */
async function refuseAsUnavailable(app: VigiaApp): Promise<() => Promise<void>> {
  if (app.store.dialect === 'sqlite') {
    // Another process holds the write lock past the service's 5 s busy timeout: SQLITE_BUSY.
    const other = new SQLite(app.config.databaseUrl.slice('file:'.length));
    other.exec('BEGIN IMMEDIATE');
    return async () => {
      other.exec('ROLLBACK');
      other.close();
    };
  }
  // 57P03 cannot_connect_now: what a PostgreSQL that is starting up answers.
  await sql
    .raw(
      `create function refuse_attempt() returns trigger language plpgsql as $$ begin ` +
        `raise exception 'the database is starting up' using errcode = '57P03'; end $$`,
    )
    .execute(app.store.db);
  await sql
    .raw(
      'create trigger refuse_attempt before insert on webhook_attempts for each row execute function refuse_attempt()',
    )
    .execute(app.store.db);
  return async () =>
    void (await sql.raw('drop trigger refuse_attempt on webhook_attempts').execute(app.store.db));
}

describe.each(DIALECTS)('%s', (dialect) => {
  test('an outcome unrecorded while the database is away is recorded when it is back, nothing sent twice', async () => {
    const { app, receiver, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    const outageMs = dialect === 'sqlite' ? 6_000 : 1_500;
    let restore: Promise<() => Promise<void>> | null = null;
    // The outage starts while the receiver answers: the attempt is made, its outcome cannot be written.
    receiver.behaviour = () => {
      restore ??= refuseAsUnavailable(app);
      return 200;
    };
    const eventId = await emit('charge.captured');
    const started = Date.now();
    worker().start();
    await receiver.waitFor(1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, outageMs));
    await (await restore!)();

    await expect
      .poll(async () => (await deliveries(endpoint.id))[0]?.status, { timeout: 10_000, interval: 100 })
      .toBe('succeeded');
    // Well within the 70 s lease after which the delivery would have been sent again.
    expect(Date.now() - started).toBeLessThan(outageMs + 12_000);
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery!.event_id).toBe(eventId);
    expect(delivery!.attempt_count).toBe(1);
    expect(receiver.requests).toHaveLength(1);
  }, 60_000);
});
