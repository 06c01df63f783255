#!/usr/bin/env node
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { ensureDemoMerchant } from './bootstrap.js';
import { simulatedAcquirer } from './charges/acquirer.js';
import { systemClock } from './clock.js';
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
import { startWorkerJobs } from './jobs.js';
import { verifyLedger } from './ledger/verify.js';
import { createMerchant } from './merchants/service.js';
import { createOperatorKey, listOperatorKeys, revokeOperatorKey, rollOperatorKey } from './operators/keys.js';
import { createOutbox } from './webhooks/outbox.js';
import { runStandaloneWorker } from './webhooks/standalone.js';
import { simulatedBank } from './withdrawals/bank-connector.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** What a command takes and does: `vigia <command> --help` prints it, and so does a mistake in using it. */
interface Command {
  /** The command and its options, as typed. */
  synopsis: string;
  description: string;
  options: Options;
}

const text = { type: 'string' } as const;
const role = '--role owner|developer|viewer';

const COMMANDS: Record<string, Command> = {
  serve: {
    synopsis: 'serve',
    description: 'run the API (migrates first); also delivers webhooks unless VIGIA_RUN_WORKER=false',
    options: {},
  },
  worker: {
    synopsis: 'worker',
    description:
      'run only the workers: webhook deliveries and the review expiry (several may share one PostgreSQL database)',
    options: {},
  },
  migrate: { synopsis: 'migrate', description: 'apply pending database migrations', options: {} },
  'merchant create': {
    synopsis: 'merchant create --name NAME [--fraud-mandatory]',
    description: 'create a merchant; prints {"id","secret_key","public_key"}',
    options: { name: text, 'fraud-mandatory': { type: 'boolean', default: false } },
  },
  'operator-key create': {
    synopsis: 'operator-key create',
    description: 'create an operator key; prints {"id","operator_key"} (operator create-key: the same)',
    options: {},
  },
  'operator-key list': {
    synopsis: 'operator-key list',
    description: 'list operator keys (ids, created_at, expires_at; no keys)',
    options: {},
  },
  'operator-key roll': {
    synopsis: 'operator-key roll --id ID [--expires-in SECONDS]',
    description:
      'issue a new key in place of key ID, printed this once; the old key works SECONDS more (default 86400, ' +
      'at most 604800; 0: it stops now)',
    options: { id: text, 'expires-in': text },
  },
  'operator-key revoke': {
    synopsis: 'operator-key revoke --id ID',
    description: 'stop key ID now (running servers within 5 seconds)',
    options: { id: text },
  },
  'user create': {
    synopsis: `user create --merchant ID --email E [${role}]`,
    description:
      'create a dashboard user of a merchant (owner by default); prints it with a one-time password_set_url (7 days)',
    options: { merchant: text, email: text, role: text },
  },
  'operator-user create': {
    synopsis: 'operator-user create --email E',
    description: 'create a dashboard user of the platform operator (same)',
    options: { email: text },
  },
  'user disable': {
    synopsis: 'user disable --email E',
    description: 'the user can no longer sign in; their sessions end now',
    options: { email: text },
  },
  'user enable': {
    synopsis: 'user enable --email E',
    description: 'undo user disable',
    options: { email: text },
  },
  'user role': {
    synopsis: `user role --email E ${role}`,
    description: "change a merchant user's role",
    options: { email: text, role: text },
  },
  'user reset-password': {
    synopsis: 'user reset-password --email E',
    description:
      'the old password stops working and the sessions end; prints a new one-time password_set_url (7 days)',
    options: { email: text },
  },
  'user unlock': {
    synopsis: 'user unlock --email E',
    description: "forget the user's failed sign-ins (every client)",
    options: { email: text },
  },
  'user sign-out': {
    synopsis: 'user sign-out --email E',
    description: 'end every session of the user',
    options: { email: text },
  },
  'ledger verify': {
    synopsis: 'ledger verify',
    description:
      'recompute every wallet balance from the ledger\'s postings; prints {"drifts":[…]} and exits 1 on any drift',
    options: {},
  },
  'demo-users': {
    synopsis: 'demo-users',
    description:
      "development only: the dashboard's demo users for the demo merchant of VIGIA_DEMO_KEYS_FILE (npm start runs it)",
    options: {},
  },
};
// The older spelling of `operator-key create`.
COMMANDS['operator create-key'] = { ...COMMANDS['operator-key create']!, synopsis: 'operator create-key' };

/** `text` folded into lines of at most `width` characters, each after `indent` spaces. */
function wrap(words: string, indent: number, width = 110): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].map((content) => ' '.repeat(indent) + content);
}

const COLUMN = 46;

/** One command's entry: its synopsis, and what it does beside it (below it when the synopsis is long). */
function commandHelp({ synopsis, description }: Command): string {
  const [first, ...rest] = wrap(description, COLUMN);
  const head = `  ${synopsis}`;
  if (head.length < COLUMN - 1) return [head.padEnd(COLUMN) + first!.trimStart(), ...rest].join('\n');
  return [head, first!, ...rest].join('\n');
}

const ENVIRONMENT = `Environment: PORT, DATABASE_URL, VIGIA_ENV (production when unset) and the other variables of the
README's Configuration table, generated from src/server/config.ts.`;

const USAGE = [
  'Usage: vigia <command> [options]   (vigia <command> --help: that command alone)',
  '',
  ...Object.entries(COMMANDS)
    .filter(([name]) => name !== 'operator create-key')
    .map(([, command]) => commandHelp(command)),
  '',
  ENVIRONMENT,
].join('\n');

/** One command's usage: how to type it, then what it does. */
const usageOf = (command: string) =>
  [`Usage: vigia ${COMMANDS[command]!.synopsis}`, '', ...wrap(COMMANDS[command]!.description, 2)].join('\n');

/** The command line is wrong: say what, then the usage of `command` (of every command when there is none). */
class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** A well-formed command that cannot be done (an unknown key id): the message alone, no usage text. */
class CommandError extends Error {}

function operatorKeyId(id: string | undefined, command: string): string {
  if (!id)
    throw new UsageError(
      `operator-key ${command} needs --id ID (see operator-key list)`,
      `operator-key ${command}`,
    );
  return id;
}

function graceSeconds(value: string | undefined): number {
  if (value === undefined) return DEFAULT_KEY_GRACE_SECONDS;
  const seconds = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(seconds <= MAX_KEY_GRACE_SECONDS)) {
    throw new UsageError(
      `--expires-in must be a whole number of seconds from 0 to ${MAX_KEY_GRACE_SECONDS}`,
      'operator-key roll',
    );
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

/** The options of every command; each command accepts only its own (COMMANDS). */
interface Values {
  name?: string;
  'fraud-mandatory'?: boolean;
  merchant?: string;
  email?: string;
  role?: string;
  id?: string;
  'expires-in'?: string;
  help?: boolean;
}

/** node:util's parse error, as one sentence for the operator. */
function parseMistake(error: { code?: string; message: string }, command: string): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option ${option} for vigia ${command}.`;
  if (error.message.endsWith('argument missing')) return `Option ${option} needs a value.`;
  return error.message.split('\n')[0]!;
}

/** The command `argv` names (null: help on every command was asked for) and its options. */
function parseCommandLine(argv: string[]): { command: string | null; values: Values } {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-')) break;
    words.push(arg);
  }
  const command = [words.slice(0, 2).join(' '), words[0] ?? ''].find((name) => name in COMMANDS);
  if (!command) {
    if (words.length === 0 && (argv[0] === '--help' || argv[0] === '-h'))
      return { command: null, values: {} };
    if (words[0] === 'help') return { command: null, values: {} };
    throw new UsageError(words.length ? `Unknown command "${words.join(' ')}".` : 'No command given.');
  }
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { ...COMMANDS[command]!.options, help: { type: 'boolean', short: 'h' } },
    });
    const extra = positionals.slice(command.split(' ').length);
    if (extra.length)
      throw new UsageError(`Unexpected argument "${extra[0]}" for vigia ${command}.`, command);
    return { command, values: values as Values };
  } catch (error) {
    if (error instanceof UsageError || !(error instanceof Error) || !('code' in error)) throw error;
    throw new UsageError(parseMistake(error as { code?: string; message: string }, command), command);
  }
}

async function main(argv: string[]): Promise<void> {
  const { command, values } = parseCommandLine(argv);
  if (command === null || values.help) {
    console.log(command === null ? USAGE : usageOf(command));
    return;
  }
  switch (command) {
    case 'serve':
      return serve();
    case 'worker': {
      const config = loadConfig();
      return runStandaloneWorker(config, (store, logger) =>
        startWorkerJobs({
          db: store.db,
          acquirer: simulatedAcquirer(config.cardHashKey),
          bank: simulatedBank(),
          outbox: createOutbox(),
          clock: systemClock,
          logger,
        }),
      );
    }
    case 'migrate': {
      const applied = await withStore(async (_store, applied) => applied);
      console.log(JSON.stringify({ applied }));
      return;
    }
    case 'merchant create': {
      const name = values.name?.trim();
      if (!name) throw new UsageError('merchant create needs --name NAME', command);
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
      if (merchantId === '') throw new UsageError('user create needs --merchant ID', command);
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
        throw new UsageError('demo-users runs only with VIGIA_ENV=development.', command);
      await withStore((store) => ensureDemoUsers(store.db, config, new Date()));
      return;
    }
    default:
      throw new Error(`vigia ${command} is listed in COMMANDS but not run`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Configuration and usage mistakes are the operator's to fix: say what is wrong, without a stack trace.
  if (error instanceof UsageError) {
    // Exit status 2 for a command line that is wrong, as shells' own builtins and getopt-based tools do.
    console.error(`${error.message}\n\n${error.command ? usageOf(error.command) : USAGE}`);
    process.exit(2);
  }
  if (error instanceof UserCommandError || error instanceof CommandError) console.error(error.message);
  else if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  const refused = error instanceof UserCommandError || error instanceof CommandError;
  process.exit(refused ? 64 : 1);
});
