#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { ensureDemoMerchant } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { DEFAULT_KEY_GRACE_SECONDS, MAX_KEY_GRACE_SECONDS } from './core/keys.js';
import { ensureDemoUsers } from './dashboard/demo-users.js';
import {
  dashboardUrl,
  runUserAction,
  runUserCreate,
  type UserAction,
  UserCommandError,
} from './dashboard/user-commands.js';
import { openStore } from './db/connect.js';
import type { Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { migrations } from './db/migrations/index.js';
import { verifyLedger } from './ledger/verify.js';
import { createMerchant } from './merchants/service.js';
import { createOperatorKey, listOperatorKeys, revokeOperatorKey, rollOperatorKey } from './operators/keys.js';
import { runStandaloneWorker } from './webhooks/standalone.js';

const USAGE = `Usage: vigia <command>

  serve                                       run the API (migrates first); also delivers webhooks
                                              unless VIGIA_RUN_WORKER=false
  worker                                      run only the webhook delivery worker (several may share
                                              one PostgreSQL database)
  migrate                                     apply pending database migrations
  merchant create --name NAME [--fraud-mandatory]
                                              create a merchant; prints {"id","secret_key","public_key"}
  operator-key create                         create an operator key; prints {"id","operator_key"}
                                              (operator create-key: the same)
  operator-key list                           list operator keys (ids, created_at, expires_at; no keys)
  operator-key roll --id ID [--expires-in SECONDS]
                                              issue a new key in place of key ID, printed this once;
                                              the old key works SECONDS more (default 86400, at most
                                              604800; 0: it stops now)
  operator-key revoke --id ID                 stop key ID now (running servers within 5 seconds)
  user create --merchant ID --email E [--role owner|developer|viewer]
                                              create a dashboard user of a merchant (owner by default);
                                              prints it with a one-time password_set_url (7 days)
  operator-user create --email E              create a dashboard user of the platform operator (same)
  user disable --email E                      the user can no longer sign in; their sessions end now
  user enable --email E                       undo user disable
  user role --email E --role owner|developer|viewer
                                              change a merchant user's role
  user reset-password --email E               the old password stops working and the sessions end;
                                              prints a new one-time password_set_url (7 days)
  user unlock --email E                       forget the user's failed sign-ins (every client)
  user sign-out --email E                     end every session of the user
  ledger verify                               recompute every wallet balance from the ledger's postings;
                                              prints {"drifts":[…]} and exits 1 on any drift
  demo-users                                  development only: the dashboard's demo users for the demo
                                              merchant of VIGIA_DEMO_KEYS_FILE (npm start runs it)

Environment: PORT, DATABASE_URL, VIGIA_ENV (production when unset) and the other variables of the
README's Configuration table, generated from src/server/config.ts.`;

class UsageError extends Error {}

/** A well-formed command that cannot be done (an unknown key id): the message alone, no usage text. */
class CommandError extends Error {}

function operatorKeyId(id: string | undefined, command: string): string {
  if (!id) throw new UsageError(`operator-key ${command} needs --id ID (see operator-key list)`);
  return id;
}

function graceSeconds(value: string | undefined): number {
  if (value === undefined) return DEFAULT_KEY_GRACE_SECONDS;
  const seconds = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(seconds <= MAX_KEY_GRACE_SECONDS)) {
    throw new UsageError(`--expires-in must be a whole number of seconds from 0 to ${MAX_KEY_GRACE_SECONDS}`);
  }
  return seconds;
}

const noWorkingKey = (id: string) =>
  new CommandError(`No working operator key has the id ${id}: see vigia operator-key list.`);

/** Runs a command on a migrated store; `applied` lists the migrations this call applied. */
async function withStore<T>(
  run: (store: ReturnType<typeof openStore<Database>>, applied: string[]) => Promise<T>,
): Promise<T> {
  const store = openStore<Database>(loadConfig().databaseUrl);
  try {
    const applied = await migrateToLatest(store.db, migrations);
    return await run(store, applied);
  } finally {
    await store.close();
  }
}

async function serve(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  await ensureDemoMerchant(app);
  await ensureDemoUsers(app.store.db, app.config, app.clock());
  await app.listen({ port: config.port, host: config.host });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // close() stops accepting connections, waits for in-flight requests, then closes the store.
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'fraud-mandatory': { type: 'boolean', default: false },
      merchant: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      id: { type: 'string' },
      'expires-in': { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  switch (command) {
    case 'serve':
      return serve();
    case 'worker':
      return runStandaloneWorker(loadConfig());
    case 'migrate': {
      const applied = await withStore(async (_store, applied) => applied);
      console.log(JSON.stringify({ applied }));
      return;
    }
    case 'merchant create': {
      const name = values.name?.trim();
      if (!name) throw new UsageError('merchant create needs --name NAME');
      const live = loadConfig().env === 'production';
      const created = await withStore((store) =>
        createMerchant(store.db, {
          name,
          fraudAnalysisMandatory: values['fraud-mandatory'],
          live,
          now: new Date(),
        }),
      );
      console.log(
        JSON.stringify({
          id: created.merchant.id,
          secret_key: created.secretKey,
          public_key: created.publicKey,
        }),
      );
      return;
    }
    case 'operator create-key':
    case 'operator-key create': {
      const { id, key } = await withStore((store) => createOperatorKey(store.db, new Date()));
      console.log(JSON.stringify({ id, operator_key: key }));
      return;
    }
    case 'operator-key list': {
      const keys = await withStore((store) => listOperatorKeys(store.db));
      console.log(
        JSON.stringify({
          operator_keys: keys.map(({ id, createdAt, expiresAt }) => ({
            id,
            created_at: createdAt,
            expires_at: expiresAt,
          })),
        }),
      );
      return;
    }
    case 'operator-key roll': {
      const id = operatorKeyId(values.id, 'roll');
      const grace = graceSeconds(values['expires-in']);
      const rolled = await withStore((store) =>
        rollOperatorKey(store.db, { id, graceSeconds: grace, now: new Date() }),
      );
      if (!rolled) throw noWorkingKey(id);
      console.log(
        JSON.stringify({
          id: rolled.id,
          operator_key: rolled.key,
          previous_key: { id, expires_at: rolled.previousKeyExpiresAt },
        }),
      );
      return;
    }
    case 'operator-key revoke': {
      const id = operatorKeyId(values.id, 'revoke');
      const now = new Date();
      if (!(await withStore((store) => revokeOperatorKey(store.db, id, now)))) throw noWorkingKey(id);
      console.log(JSON.stringify({ id, expires_at: now.toISOString() }));
      return;
    }
    case 'user create':
    case 'operator-user create': {
      const merchantId = command === 'user create' ? (values.merchant ?? '') : null;
      if (merchantId === '') throw new UsageError('user create needs --merchant ID');
      const config = loadConfig();
      const created = await withStore((store) =>
        runUserCreate(
          store.db,
          { merchantId, email: values.email, role: values.role },
          dashboardUrl(config),
          new Date(),
        ),
      );
      console.log(JSON.stringify(created));
      return;
    }
    case 'user disable':
    case 'user enable':
    case 'user role':
    case 'user reset-password':
    case 'user unlock':
    case 'user sign-out': {
      const action = command.slice('user '.length) as UserAction;
      const config = loadConfig();
      const done = await withStore((store) =>
        runUserAction(
          store.db,
          action,
          { email: values.email, role: values.role },
          dashboardUrl(config),
          new Date(),
        ),
      );
      console.log(JSON.stringify(done));
      return;
    }
    case 'ledger verify': {
      const drifts = await withStore((store) => verifyLedger(store.db));
      console.log(JSON.stringify({ drifts }));
      if (drifts.length > 0) process.exitCode = 1;
      return;
    }
    case 'demo-users': {
      const config = loadConfig();
      if (config.env !== 'development')
        throw new UsageError('demo-users runs only with VIGIA_ENV=development.');
      await withStore((store) => ensureDemoUsers(store.db, config, new Date()));
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Configuration and usage mistakes are the operator's to fix: say what is wrong, without a stack trace.
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
  else if (error instanceof UserCommandError || error instanceof CommandError) console.error(error.message);
  else if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  const refused =
    error instanceof UsageError || error instanceof UserCommandError || error instanceof CommandError;
  process.exit(refused ? 64 : 1);
});
