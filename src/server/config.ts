import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseMasterKey } from './core/secret-box.js';

export type Environment = 'development' | 'production' | 'test';

/**
 * Every environment variable the service reads, described once: the README's configuration table is generated
 * from this (`npm run docs:config`, test/server/config-docs.test.ts fails when they differ) and `loadConfig` reads
 * nothing else. `default` and `meaning` are Markdown; `accepts` is what passes validation (anything else stops the
 * service at start with a ConfigError naming the variable).
 */
export const CONFIG_VARIABLES = {
  PORT: { default: '`4000`', accepts: 'an integer 0–65535', meaning: 'HTTP port of the service' },
  HOST: { default: '`127.0.0.1`', accepts: 'an address', meaning: 'interface to listen on' },
  DATABASE_URL: {
    default: '`file:.data/vigia.db`',
    accepts: '`file:PATH` or `postgres://…`',
    meaning: '`file:PATH` for SQLite (embedded), `postgres://user:pass@host:port/db` for PostgreSQL',
  },
  VIGIA_ENV: {
    default: 'unset = `production`',
    accepts: '`development`, `production`, `test`',
    meaning:
      'unset means production (fail closed: SSRF guard on, keys required); `npm start`, the tests, the demo and ' +
      'e2e set `development`, whose conveniences (generated keys, demo merchant, readable logs) are an opt-in',
  },
  LOG_LEVEL: {
    default: '`info` (`silent` in test)',
    accepts: 'a pino level',
    meaning:
      'logs are JSON lines with a request id (readable lines in development), never keys, `Authorization` or ' +
      'bodies',
  },
  TRUST_PROXY: {
    default: 'unset (trust no proxy)',
    accepts: 'addresses/CIDRs (`10.0.0.5,10.1.0.0/16`), a hop count (`1`), `false`',
    meaning:
      'your reverse proxies, the only peers whose `X-Forwarded-For` is believed. `true`, more than 5 hops and ' +
      'networks wider than /8 (IPv4) or /7 (IPv6) are refused: they would let a client choose its own IP ' +
      '([decision](docs/decisions/trust-proxy-bounds.md))',
  },
  VIGIA_PUBLIC_URL: {
    default: '`http://HOST:PORT`',
    accepts: 'an http(s) URL',
    meaning: "the service's public address behind a proxy, for the dashboard links the CLI prints and sends",
  },
  VIGIA_CARD_HASH_KEY: {
    default: 'development: generated into `.data/card-hash.key`',
    accepts: 'at least 32 characters',
    meaning:
      'HMAC key for card-number hashes (velocity rules, test cards); never logged; keep it stable; ' +
      '**required in production**',
  },
  VIGIA_WEBHOOK_MASTER_KEY: {
    default: 'development: generated into `.data/webhook-master.key`',
    accepts: '32 bytes as 64 hex characters or base64 (`openssl rand -base64 32`)',
    meaning:
      'AES-256-GCM key sealing webhook endpoint secrets at rest; never logged; keep it stable; ' +
      '**required in production**',
  },
  VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    default: '`true` except in production',
    accepts: '`true`, `false`, `1`, `0`',
    meaning:
      'let webhook URLs use plain http and point at loopback/private addresses (development and the demo); when ' +
      '`false`, only https to public addresses, checked at registration and at every connection',
  },
  VIGIA_WEBHOOK_TIMEOUT_MS: {
    default: '`10000`',
    accepts: 'milliseconds, 100–60000',
    meaning: 'how long one webhook delivery attempt may take before it counts as failed',
  },
  VIGIA_RUN_WORKER: {
    default: '`true`',
    accepts: '`true`, `false`, `1`, `0`',
    meaning:
      'run the webhook delivery worker inside `serve`; set `false` and run `vigia worker` separately to scale it ' +
      'apart',
  },
  VIGIA_HEADER_EVIDENCE: {
    default: '`true`',
    accepts: '`true`, `false`, `1`, `0`',
    meaning:
      "record the browser's client hints, Fetch Metadata, `Accept-*` and header order on fraud sessions and judge " +
      'them; set `false` when your proxy strips or rewrites them: unseen headers never raise a score ' +
      '([docs/charges.md](docs/charges.md#request-headers-as-evidence))',
  },
  VIGIA_PUBLIC_WRITE_LIMIT: {
    default: '`3000`',
    accepts: 'a whole number, 1–1000000',
    meaning:
      'merchant-wide ceiling per 60 s window on public-key writes (fraud sessions, signals, tokens), over all its ' +
      "buyers' per-IP buckets",
  },
  VIGIA_REQUEST_TIMEOUT_MS: {
    default: '`30000`',
    accepts: 'milliseconds, 100–60000',
    meaning: 'how long a client may take to send a whole request; idle connections close after twice that',
  },
  VIGIA_SDK_DIST: {
    default: '`src/sdk/dist`',
    accepts: 'a directory',
    meaning: 'the built SDK served under `/sdk/v1/`',
  },
  VIGIA_DEMO_KEYS_FILE: {
    default: '`.data/demo-merchant.json`',
    accepts: 'a file path',
    meaning: "where development writes the demo merchant's keys for the demo backend",
  },
} as const satisfies Record<string, { default: string; accepts: string; meaning: string }>;

export type ConfigVariable = keyof typeof CONFIG_VARIABLES;

/** The service's settings, each read from the variable of CONFIG_VARIABLES its comment names. */
export interface Config {
  /** `VIGIA_ENV`. */
  env: Environment;
  /** `PORT`. */
  port: number;
  /** `HOST`. */
  host: string;
  /** `DATABASE_URL`: `file:PATH` (SQLite) or `postgres://…` (PostgreSQL). */
  databaseUrl: string;
  /** `LOG_LEVEL`. */
  logLevel: string;
  /** `TRUST_PROXY`: false (the client IP is the socket's), the proxies' addresses/CIDRs, or a hop count. */
  trustProxy: false | number | string[];
  /** `VIGIA_PUBLIC_URL` without its trailing slash; undefined when unset (links use HOST and PORT). */
  publicUrl?: string;
  /** `VIGIA_PUBLIC_WRITE_LIMIT`. */
  publicWriteLimit: number;
  /** Length of a rate-limit window; 60 s in production, shorter only in tests (no variable). */
  rateLimitWindowSeconds: number;
  /** `VIGIA_SDK_DIST`. */
  sdkDistDir: string;
  /** `VIGIA_DEMO_KEYS_FILE`, resolved. */
  demoKeysFile: string;
  /** `VIGIA_CARD_HASH_KEY`; never logged. */
  cardHashKey: string;
  /** `VIGIA_WEBHOOK_MASTER_KEY`, decoded; never logged. */
  webhookMasterKey: Buffer;
  /** `VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS`. */
  webhookAllowPrivateTargets: boolean;
  /** `VIGIA_REQUEST_TIMEOUT_MS`. */
  requestTimeoutMs: number;
  /** `VIGIA_WEBHOOK_TIMEOUT_MS`. */
  webhookTimeoutMs: number;
  /** `VIGIA_HEADER_EVIDENCE`. */
  headerEvidence: boolean;
  /** `VIGIA_RUN_WORKER`; false when `vigia worker` runs apart. */
  runWorker?: boolean;
}

export class ConfigError extends Error {}

const ENVIRONMENTS: readonly Environment[] = ['development', 'production', 'test'];

function parsePort(name: ConfigVariable, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be an integer between 0 and 65535, got "${raw}".`);
  }
  return port;
}

const DEV_CARD_HASH_KEY_FILE = '.data/card-hash.key';

/**
 * Card hashes must stay comparable across restarts (velocity rules look back in time), so development keeps a
 * generated key in `.data/`; production refuses to start without one set explicitly.
 */
function loadCardHashKey(environment: Environment, raw: string | undefined): string {
  if (raw) {
    if (raw.length < 32) throw new ConfigError('VIGIA_CARD_HASH_KEY must have at least 32 characters.');
    return raw;
  }
  if (environment === 'production') {
    throw new ConfigError('VIGIA_CARD_HASH_KEY is required in production (at least 32 random characters).');
  }
  if (environment === 'test') return 'vigia-test-card-hash-key-not-for-production-use';
  const file = path.resolve(DEV_CARD_HASH_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}

const DEV_WEBHOOK_MASTER_KEY_FILE = '.data/webhook-master.key';
const TEST_WEBHOOK_MASTER_KEY = Buffer.alloc(32, 0x5a);

/** Development generates a master key on first start and keeps it in `.data/`; production must be given one. */
function loadWebhookMasterKey(environment: Environment, raw: string | undefined): Buffer {
  if (raw) {
    const key = parseMasterKey(raw);
    if (!key) {
      throw new ConfigError(
        'VIGIA_WEBHOOK_MASTER_KEY must be 32 random bytes written as 64 hex characters or base64 ' +
          '(e.g. `openssl rand -base64 32`).',
      );
    }
    return key;
  }
  if (environment === 'production') {
    throw new ConfigError(
      'VIGIA_WEBHOOK_MASTER_KEY is required in production: 32 random bytes as hex or base64 ' +
        '(e.g. `openssl rand -base64 32`). It encrypts webhook secrets at rest; keep it stable.',
    );
  }
  if (environment === 'test') return TEST_WEBHOOK_MASTER_KEY;
  const file = path.resolve(DEV_WEBHOOK_MASTER_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process (serve and worker starting together) created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = parseMasterKey(fs.readFileSync(file, 'utf8'));
  if (!key) {
    throw new ConfigError(`${DEV_WEBHOOK_MASTER_KEY_FILE} is not a 32-byte key; delete it to regenerate.`);
  }
  return key;
}

function parseFlag(name: ConfigVariable, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}".`);
}

/**
 * `true` would trust every hop of X-Forwarded-For, which the client writes itself: it could pick its own IP
 * (escaping per-IP limits, exhausting another buyer's, forging a session's observed IP). Only named proxies or
 * a hop count are accepted.
 */
/** More hops than any real chain of proxies: past it, every client could name its own address. */
const MAX_PROXY_HOPS = 5;
/**
 * The widest networks a deployment may trust: 10.0.0.0/8 (IPv4) and fc00::/7 (IPv6 unique local). A wider one
 * (0.0.0.0/1 + 128.0.0.0/1 is everyone) trusts the internet, and /0 crashes proxy-addr at start.
 */
const MIN_PREFIX = { 4: 8, 6: 7 } as const;

function parseTrustProxy(raw: string | undefined): false | number | string[] {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d{1,2}$/.test(raw)) {
    const hops = Number(raw);
    if (hops > MAX_PROXY_HOPS) {
      throw new ConfigError(
        `TRUST_PROXY gives ${hops} proxy hops; at most ${MAX_PROXY_HOPS} are accepted: more would let clients ` +
          "choose their own IP through X-Forwarded-For. List your proxies' addresses or CIDRs instead.",
      );
    }
    return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const valid = (entry: string) => {
    const [address = '', prefix, ...rest] = entry.split('/');
    const version = net.isIP(address);
    if (version === 0 || rest.length > 0) return false;
    if (prefix === undefined) return true;
    const bits = Number(prefix);
    return (
      /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128) && bits >= MIN_PREFIX[version as 4 | 6]
    );
  };
  if (entries.length === 0 || !entries.every(valid)) {
    throw new ConfigError(
      `TRUST_PROXY must list your reverse proxies' addresses or CIDRs (e.g. "10.0.0.5,10.1.0.0/16") or give ` +
        `the number of proxy hops (e.g. "1"), got "${raw.slice(0, 100)}". "true" is refused, and so is a network ` +
        `wider than /${MIN_PREFIX[4]} (IPv4) or /${MIN_PREFIX[6]} (IPv6): either would let any client choose its ` +
        'own IP through X-Forwarded-For.',
    );
  }
  return entries;
}

function parseCount(name: ConfigVariable, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
    throw new ConfigError(`${name} must be a whole number between 1 and 1000000, got "${raw}".`);
  }
  return count;
}

function parseTimeout(name: ConfigVariable, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100 || ms > 60_000) {
    throw new ConfigError(`${name} must be a number of milliseconds between 100 and 60000, got "${raw}".`);
  }
  return ms;
}

function parsePublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new ConfigError(`VIGIA_PUBLIC_URL must be an http(s) URL, got "${raw.slice(0, 100)}".`);
  }
  return raw.replace(/\/+$/, '');
}

/** What production cannot run without: each names a secret that development would generate on the spot. */
const PRODUCTION_REQUIRED: readonly ConfigVariable[] = ['VIGIA_CARD_HASH_KEY', 'VIGIA_WEBHOOK_MASTER_KEY'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Only the variables of CONFIG_VARIABLES can be read, so the README's table lists everything there is.
  const read = (name: ConfigVariable): string | undefined => env[name];
  // Fail closed: without VIGIA_ENV the service is production (SSRF guard on, no generated keys). Development,
  // with its conveniences, is an explicit opt-in (`npm start`, the tests, the demo and e2e set it).
  const vigiaEnv = (read('VIGIA_ENV') || 'production') as Environment;
  if (!ENVIRONMENTS.includes(vigiaEnv)) {
    throw new ConfigError(`VIGIA_ENV must be one of ${ENVIRONMENTS.join(', ')}, got "${read('VIGIA_ENV')}".`);
  }
  const missing = PRODUCTION_REQUIRED.filter((name) => !read(name));
  if (vigiaEnv === 'production' && missing.length > 0) {
    throw new ConfigError(
      `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required in production` +
        `${read('VIGIA_ENV') ? '' : ' (VIGIA_ENV is not set, so this is production)'}: VIGIA_CARD_HASH_KEY at ` +
        'least 32 random characters, VIGIA_WEBHOOK_MASTER_KEY 32 random bytes as hex or base64 (e.g. ' +
        '`openssl rand -base64 32`). For local development set VIGIA_ENV=development.',
    );
  }
  const databaseUrl = read('DATABASE_URL') || 'file:.data/vigia.db';
  if (!/^(file:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with "file:" (SQLite) or "postgres://" (PostgreSQL).');
  }
  return {
    env: vigiaEnv,
    port: parsePort('PORT', read('PORT'), 4000),
    host: read('HOST') || '127.0.0.1',
    databaseUrl,
    logLevel: read('LOG_LEVEL') || (vigiaEnv === 'test' ? 'silent' : 'info'),
    trustProxy: parseTrustProxy(read('TRUST_PROXY')),
    publicUrl: parsePublicUrl(read('VIGIA_PUBLIC_URL')),
    rateLimitWindowSeconds: 60,
    publicWriteLimit: parseCount('VIGIA_PUBLIC_WRITE_LIMIT', read('VIGIA_PUBLIC_WRITE_LIMIT'), 3000),
    sdkDistDir: read('VIGIA_SDK_DIST') || path.resolve(import.meta.dirname, '../sdk/dist'),
    demoKeysFile: path.resolve(read('VIGIA_DEMO_KEYS_FILE') || '.data/demo-merchant.json'),
    cardHashKey: loadCardHashKey(vigiaEnv, read('VIGIA_CARD_HASH_KEY')),
    webhookMasterKey: loadWebhookMasterKey(vigiaEnv, read('VIGIA_WEBHOOK_MASTER_KEY')),
    webhookAllowPrivateTargets: parseFlag(
      'VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS',
      read('VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS'),
      vigiaEnv !== 'production',
    ),
    webhookTimeoutMs: parseTimeout('VIGIA_WEBHOOK_TIMEOUT_MS', read('VIGIA_WEBHOOK_TIMEOUT_MS'), 10_000),
    requestTimeoutMs: parseTimeout('VIGIA_REQUEST_TIMEOUT_MS', read('VIGIA_REQUEST_TIMEOUT_MS'), 30_000),
    headerEvidence: parseFlag('VIGIA_HEADER_EVIDENCE', read('VIGIA_HEADER_EVIDENCE'), true),
    runWorker: parseFlag('VIGIA_RUN_WORKER', read('VIGIA_RUN_WORKER'), true),
  };
}
