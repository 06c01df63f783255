// Types for postgres-lib.mjs, so TypeScript tests and setup files can import it.

export interface PostgresHandle {
  /** Superuser connection URL, e.g. postgres://postgres@127.0.0.1:PORT/postgres (trust auth, no password). */
  url: string;
  host: string;
  port: number;
  dataDir: string;
  /** The temporary folder holding dataDir, the Unix socket and postgres.log. */
  baseDir: string;
  /** The postmaster's process id. */
  pid: number;
  binDir: string;
  /** The `-o` options it was started with (port and settings), to start it again on the same port. */
  serverOptions: string;
  logFile: string;
}

export interface StartPostgresOptions {
  /** Extra server settings, passed as `-c name=value`. */
  settings?: Record<string, string | number>;
}

/** The directory holding initdb, pg_ctl and postgres (PG_BINDIR, /usr/lib/postgresql/<newest>/bin, or PATH). */
export function findPostgresBinDir(): string;

/** Creates a fresh cluster in a temporary folder and starts it on a free loopback port. */
export function startPostgres(options?: StartPostgresOptions): Promise<PostgresHandle>;

/** Stops the server (fast shutdown) and removes its temporary folder. Accepts the handle or its dataDir. */
export function stopPostgres(handleOrDataDir: PostgresHandle | string): Promise<void>;

/** Synchronous last resort for exit handlers: immediate shutdown, folder removed. */
export function stopPostgresSync(handle: PostgresHandle): void;

/** Immediate shutdown (every session cut, no checkpoint), the data kept for `restartPostgres`. */
export function crashPostgres(handle: PostgresHandle): void;

/** Starts a crashed server again on its port (crash recovery first); updates `handle.pid`. */
export function restartPostgres(handle: PostgresHandle): void;

/** SIGSTOP (true) or SIGCONT (false) to the postmaster and every backend: a stalled host. */
export function freezePostgres(handle: PostgresHandle, frozen: boolean): void;
