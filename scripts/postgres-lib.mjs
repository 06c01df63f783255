// A throwaway PostgreSQL server for tests: fresh data directory in a temporary folder, a free loopback
// port, trust authentication, durability switched off (the data dies with the folder anyway).
// PostgreSQL refuses to run as root, so when we are root every server command runs as `postgres`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const TEMP_PREFIX = 'vigia-pg-';
const SUPERUSER = 'postgres';

const TEST_SETTINGS = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '200',
  TimeZone: 'UTC',
  log_min_messages: 'warning',
};

/** @returns {string} the directory holding initdb, pg_ctl and postgres */
export function findPostgresBinDir() {
  const fromEnv = process.env.PG_BINDIR;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.trim()) return dirname(onPath.stdout.trim());
  throw new Error(
    'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found. Install the Debian package ' +
      '`postgresql` (run `bash scripts/ensure-system-deps.sh` as root), set PG_BINDIR, ' +
      'or set DATABASE_URL=postgres://… to use an existing server.',
  );
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** @returns {{ uid: number, gid: number }} */
function postgresUser() {
  try {
    const uid = Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      'Running as root, but there is no `postgres` system user to run PostgreSQL as ' +
        '(PostgreSQL refuses to run as root). Install the Debian package `postgresql`, which creates it.',
    );
  }
}

/**
 * Runs a PostgreSQL command, as the `postgres` user when we are root.
 * @param {string} binDir
 * @param {string} command
 * @param {string[]} args
 */
function runPg(binDir, command, args, { allowFailure = false } = {}) {
  const file = join(binDir, command);
  const [exe, argv] = isRoot() ? ['runuser', ['-u', SUPERUSER, '--', file, ...args]] : [file, args];
  const result = spawnSync(exe, argv, { encoding: 'utf8', cwd: '/', env: { ...process.env, LC_ALL: 'C' } });
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFailure) {
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr || result.stdout}`,
    );
  }
  return result;
}

function makeBaseDir() {
  const candidates = [process.env.VIGIA_PG_TMPDIR, tmpdir(), '/tmp'].filter(Boolean);
  for (const parent of candidates) {
    const dir = mkdtempSync(join(/** @type {string} */ (parent), TEMP_PREFIX));
    // The socket path (dir + "/.s.PGSQL.NNNNN") must fit in sockaddr_un's 107 bytes.
    if (dir.length > 80) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (!isRoot()) return dir;
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
    // The postgres user must be able to reach the folder (e.g. a TMPDIR under /root would not do).
    const reachable = spawnSync('runuser', ['-u', SUPERUSER, '--', 'test', '-w', dir]).status === 0;
    if (reachable) return dir;
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('Could not create a temporary folder for PostgreSQL that the server user can use.');
}

/** @returns {Promise<number>} */
function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function localeForInitdb() {
  // C.UTF-8 keeps byte-order sorting (deterministic) while lower()/ILIKE handle non-ASCII letters.
  const result = spawnSync('locale', ['-a'], { encoding: 'utf8' });
  const locales = result.status === 0 ? result.stdout.split('\n').map((l) => l.trim().toLowerCase()) : [];
  return locales.includes('c.utf8') || locales.includes('c.utf-8') ? 'C.UTF-8' : 'C';
}

/**
 * @typedef {object} PostgresHandle
 * @property {string} url       superuser connection URL, e.g. postgres://postgres@127.0.0.1:PORT/postgres
 * @property {string} host
 * @property {number} port
 * @property {string} dataDir
 * @property {string} baseDir   the temporary folder holding dataDir, the socket and the log
 * @property {number} pid       the postmaster's process id
 * @property {string} binDir
 * @property {string} serverOptions the `-o` options it was started with (port and settings), to start it again
 * @property {string} logFile
 */

/**
 * Creates a fresh cluster in a temporary folder and starts it on a free loopback port.
 * @param {{ settings?: Record<string, string | number> }} [options] extra `-c name=value` server settings
 * @returns {Promise<PostgresHandle>}
 */
export async function startPostgres(options = {}) {
  const binDir = findPostgresBinDir();
  const baseDir = makeBaseDir();
  const dataDir = join(baseDir, 'data');
  const logFile = join(baseDir, 'postgres.log');
  try {
    runPg(binDir, 'initdb', [
      '-D',
      dataDir,
      '-U',
      SUPERUSER,
      '-A',
      'trust',
      '-E',
      'UTF8',
      `--locale=${localeForInitdb()}`,
      '--no-sync',
      '--no-instructions',
    ]);
    const settings = { ...TEST_SETTINGS, unix_socket_directories: baseDir, ...options.settings };
    let lastError;
    // A free port can be taken between our probe and the server's bind: try a few.
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freeLoopbackPort();
      const serverOptions = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(
        ' ',
      );
      const result = runPg(
        binDir,
        'pg_ctl',
        ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-s', '-o', serverOptions],
        { allowFailure: true },
      );
      if (result.status === 0) {
        const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        return {
          url: `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`,
          host: '127.0.0.1',
          port,
          dataDir,
          baseDir,
          pid,
          binDir,
          serverOptions,
          logFile,
        };
      }
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
      lastError = new Error(`PostgreSQL did not start on port ${port}:\n${result.stderr}\n${log}`);
    }
    throw lastError;
  } catch (error) {
    rmSync(baseDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Stops a server started by startPostgres (fast shutdown: open sessions are ended) and removes its folder.
 * Accepts the handle or its data directory. Safe to call twice.
 * @param {PostgresHandle | string} handleOrDataDir
 */
export async function stopPostgres(handleOrDataDir) {
  const dataDir = typeof handleOrDataDir === 'string' ? handleOrDataDir : handleOrDataDir.dataDir;
  const baseDir = dirname(dataDir);
  if (basename(dataDir) !== 'data' || !basename(baseDir).startsWith(TEMP_PREFIX)) {
    throw new Error(`Refusing to stop/remove ${dataDir}: not a data directory made by startPostgres.`);
  }
  if (existsSync(join(dataDir, 'postmaster.pid'))) {
    const binDir = typeof handleOrDataDir === 'string' ? findPostgresBinDir() : handleOrDataDir.binDir;
    const result = runPg(binDir, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '30', '-s'], {
      allowFailure: true,
    });
    if (result.status !== 0) killPostmaster(dataDir);
  }
  rmSync(baseDir, { recursive: true, force: true });
}

/**
 * Synchronous last resort for process exit handlers: immediate shutdown, folder removed.
 * @param {PostgresHandle} handle
 */
export function stopPostgresSync(handle) {
  if (existsSync(join(handle.dataDir, 'postmaster.pid'))) {
    const result = runPg(
      handle.binDir,
      'pg_ctl',
      ['stop', '-D', handle.dataDir, '-m', 'immediate', '-w', '-s'],
      {
        allowFailure: true,
      },
    );
    if (result.status !== 0) killPostmaster(handle.dataDir);
  }
  rmSync(handle.baseDir, { recursive: true, force: true });
}

/** @param {string} dataDir */
function killPostmaster(dataDir) {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    // already gone
  }
}

/**
 * Crashes the server as a power cut would for its clients: immediate shutdown (no checkpoint, every session
 * cut), the data directory kept for `restartPostgres`. For fault-injection tests.
 * @param {PostgresHandle} handle
 */
export function crashPostgres(handle) {
  runPg(handle.binDir, 'pg_ctl', ['stop', '-D', handle.dataDir, '-m', 'immediate', '-w', '-t', '30', '-s'], {
    allowFailure: true,
  });
}

/**
 * Starts a server stopped by `crashPostgres` again on its port (crash recovery runs first); updates `pid`.
 * @param {PostgresHandle} handle
 */
export function restartPostgres(handle) {
  runPg(handle.binDir, 'pg_ctl', [
    'start',
    '-D',
    handle.dataDir,
    '-l',
    handle.logFile,
    '-w',
    '-t',
    '60',
    '-s',
    '-o',
    handle.serverOptions,
  ]);
  handle.pid = Number(readFileSync(join(handle.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/**
 * Freezes (SIGSTOP) or thaws (SIGCONT) the whole server, the postmaster and every backend, as a stalled host
 * would: connections stay open and nothing answers. We started it, so we may signal it (as root or as its owner).
 * @param {PostgresHandle} handle
 * @param {boolean} frozen
 */
export function freezePostgres(handle, frozen) {
  const pids = [handle.pid, ...childPids(handle.pid)];
  // Stop the postmaster first (it would otherwise notice stopped children); continue it last.
  const ordered = frozen ? pids : pids.reverse();
  for (const pid of ordered) {
    try {
      process.kill(pid, frozen ? 'SIGSTOP' : 'SIGCONT');
    } catch {
      // a backend that ended meanwhile
    }
  }
}

/** @param {number} pid */
function childPids(pid) {
  const result = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  return result.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
}
