import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseMasterKey } from './core/secret-box.js';

export type Environment = 'development' | 'production' | 'test';

export interface Config {
  env: Environment;
  port: number;
  host: string;
  /** `file:PATH` (SQLite) or `postgres://…` (PostgreSQL). */
  databaseUrl: string;
  logLevel: string;
  /**
   * Which peers may set X-Forwarded-For: false (none: the client IP is the socket's), the addresses/CIDRs of
   * the reverse proxies, or the number of proxy hops in front of the service. `TRUST_PROXY`.
   */
  trustProxy: false | number | string[];
  /**
   * Merchant-wide ceiling on public-key writes (sessions, signals, tokens) per window, over all its buyers'
   * per-IP buckets. `VIGIA_PUBLIC_WRITE_LIMIT` (3000).
   */
  publicWriteLimit: number;
  /** Length of a rate-limit window; 60 s in production, shorter only in tests. */
  rateLimitWindowSeconds: number;
  /** Directory of the built SDK served under /sdk/v1/. */
  sdkDistDir: string;
  /** Where development writes the demo merchant's keys for the demo backend. */
  demoKeysFile: string;
  /** HMAC key for card-number hashes (velocity rules, test cards); never logged. `VIGIA_CARD_HASH_KEY`. */
  cardHashKey: string;
  /** AES-256-GCM key (32 bytes) sealing webhook endpoint secrets at rest; never logged. `VIGIA_WEBHOOK_MASTER_KEY`. */
  webhookMasterKey: Buffer;
  /**
   * Whether webhook URLs may use http and point at loopback/private addresses (development, test). When false
   * (production), only https to public addresses, checked at registration and again at every connection.
   */
  webhookAllowPrivateTargets: boolean;
  /** How long a client may take to send a whole request (30 s); idle connections close after twice that. */
  requestTimeoutMs: number;
  /** How long one webhook delivery attempt may take before it counts as failed (10 s). */
  webhookTimeoutMs: number;
  /**
   * Whether the fraud routes record and the risk engine judges the browser's request headers (client hints, Fetch
   * Metadata, Accept-Language, header order). Off for a deployment whose proxy strips or rewrites them
   * (docs/charges.md): unseen headers never raise a score. `VIGIA_HEADER_EVIDENCE` (true).
   */
  headerEvidence: boolean;
  /** Run the webhook delivery worker inside this process (default); false when `vigia worker` runs apart. */
  runWorker?: boolean;
}

export class ConfigError extends Error {}

const ENVIRONMENTS: readonly Environment[] = ['development', 'production', 'test'];

function parsePort(name: string, raw: string | undefined, fallback: number): number {
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

function parseFlag(name: string, raw: string | undefined, fallback: boolean): boolean {
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

function parseCount(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
    throw new ConfigError(`${name} must be a whole number between 1 and 1000000, got "${raw}".`);
  }
  return count;
}

function parseTimeout(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100 || ms > 60_000) {
    throw new ConfigError(`${name} must be a number of milliseconds between 100 and 60000, got "${raw}".`);
  }
  return ms;
}

/** What production cannot run without: each names a secret that development would generate on the spot. */
const PRODUCTION_REQUIRED = ['VIGIA_CARD_HASH_KEY', 'VIGIA_WEBHOOK_MASTER_KEY'] as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Fail closed: without VIGIA_ENV the service is production (SSRF guard on, no generated keys). Development,
  // with its conveniences, is an explicit opt-in (`npm start`, the tests, the demo and e2e set it).
  const vigiaEnv = (env.VIGIA_ENV || 'production') as Environment;
  if (!ENVIRONMENTS.includes(vigiaEnv)) {
    throw new ConfigError(`VIGIA_ENV must be one of ${ENVIRONMENTS.join(', ')}, got "${env.VIGIA_ENV}".`);
  }
  const missing = PRODUCTION_REQUIRED.filter((name) => !env[name]);
  if (vigiaEnv === 'production' && missing.length > 0) {
    throw new ConfigError(
      `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required in production` +
        `${env.VIGIA_ENV ? '' : ' (VIGIA_ENV is not set, so this is production)'}: VIGIA_CARD_HASH_KEY at ` +
        'least 32 random characters, VIGIA_WEBHOOK_MASTER_KEY 32 random bytes as hex or base64 (e.g. ' +
        '`openssl rand -base64 32`). For local development set VIGIA_ENV=development.',
    );
  }
  const databaseUrl = env.DATABASE_URL || 'file:.data/vigia.db';
  if (!/^(file:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with "file:" (SQLite) or "postgres://" (PostgreSQL).');
  }
  return {
    env: vigiaEnv,
    port: parsePort('PORT', env.PORT, 4000),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    logLevel: env.LOG_LEVEL || (vigiaEnv === 'test' ? 'silent' : 'info'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    rateLimitWindowSeconds: 60,
    publicWriteLimit: parseCount('VIGIA_PUBLIC_WRITE_LIMIT', env.VIGIA_PUBLIC_WRITE_LIMIT, 3000),
    sdkDistDir: env.VIGIA_SDK_DIST || path.resolve(import.meta.dirname, '../sdk/dist'),
    demoKeysFile: path.resolve(env.VIGIA_DEMO_KEYS_FILE || '.data/demo-merchant.json'),
    cardHashKey: loadCardHashKey(vigiaEnv, env.VIGIA_CARD_HASH_KEY),
    webhookMasterKey: loadWebhookMasterKey(vigiaEnv, env.VIGIA_WEBHOOK_MASTER_KEY),
    webhookAllowPrivateTargets: parseFlag(
      'VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS',
      env.VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS,
      vigiaEnv !== 'production',
    ),
    webhookTimeoutMs: parseTimeout('VIGIA_WEBHOOK_TIMEOUT_MS', env.VIGIA_WEBHOOK_TIMEOUT_MS, 10_000),
    requestTimeoutMs: parseTimeout('VIGIA_REQUEST_TIMEOUT_MS', env.VIGIA_REQUEST_TIMEOUT_MS, 30_000),
    headerEvidence: parseFlag('VIGIA_HEADER_EVIDENCE', env.VIGIA_HEADER_EVIDENCE, true),
    runWorker: parseFlag('VIGIA_RUN_WORKER', env.VIGIA_RUN_WORKER, true),
  };
}
