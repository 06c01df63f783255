import path from 'node:path';

export type Environment = 'development' | 'production' | 'test';

export interface Config {
  env: Environment;
  port: number;
  host: string;
  /** `file:PATH` (SQLite) or `postgres://…` (PostgreSQL). */
  databaseUrl: string;
  logLevel: string;
  /** Trust X-Forwarded-For from a reverse proxy when deriving the client IP. */
  trustProxy: boolean;
  /** Length of a rate-limit window; 60 s in production, shorter only in tests. */
  rateLimitWindowSeconds: number;
  /** Directory of the built SDK served under /sdk/v1/. */
  sdkDistDir: string;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const vigiaEnv = (env.VIGIA_ENV ?? 'development') as Environment;
  if (!ENVIRONMENTS.includes(vigiaEnv)) {
    throw new ConfigError(`VIGIA_ENV must be one of ${ENVIRONMENTS.join(', ')}, got "${env.VIGIA_ENV}".`);
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
    trustProxy: env.TRUST_PROXY === 'true',
    rateLimitWindowSeconds: 60,
    sdkDistDir: env.VIGIA_SDK_DIST || path.resolve(import.meta.dirname, '../sdk/dist'),
  };
}
