// The faults a run injects, each recorded as a window: when it started, when the failing part was back (the
// moment recovery is measured from), and when it ended.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { crashPostgres, freezePostgres, restartPostgres } from '../../scripts/postgres-lib.mjs';
import type { Cluster, ServiceProcess } from './cluster.js';

export type FaultKind =
  | 'kill-instance'
  | 'kill-worker'
  | 'restart-postgres'
  | 'freeze-postgres'
  | 'fill-disk'
  | 'cut-connection';

export interface FaultWindow {
  kind: FaultKind;
  /** What exactly: which instance, for how long. */
  detail: string;
  start: number;
  /** The part that failed is back (PostgreSQL accepts connections, the disk has room), or, for a killed
   * instance, the moment it died (the other instance serves from then on). */
  cleared: number;
  end: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a killed process stays down before its supervisor starts it again. */
export const RESTART_AFTER_MS = 3_000;
export const POSTGRES_DOWN_MS = 2_000;
export const FREEZE_MS = 10_000;
export const DISK_FULL_MS = 6_000;

export interface FaultContext {
  cluster: Cluster;
  /** The SQLite run's small file system, where `fill-disk` writes its filler. */
  diskDir?: string;
  /** `cut-connection`: sends a charge and drops the connection mid-request (the load retries its key). */
  cutConnection?: (instance: ServiceProcess) => Promise<string>;
}

export async function injectFault(kind: FaultKind, context: FaultContext): Promise<FaultWindow> {
  const { cluster } = context;
  const start = Date.now();
  switch (kind) {
    case 'kill-instance': {
      const victim = cluster.instances[Math.floor(Math.random() * cluster.instances.length)]!;
      await victim.kill('SIGKILL');
      const cleared = Date.now();
      await sleep(RESTART_AFTER_MS);
      await victim.start();
      return {
        kind,
        detail: `${victim.name} killed (SIGKILL), restarted after ${RESTART_AFTER_MS / 1000} s`,
        start,
        cleared,
        end: Date.now(),
      };
    }
    case 'kill-worker': {
      const worker = cluster.worker!;
      await worker.kill('SIGKILL');
      await sleep(RESTART_AFTER_MS);
      await worker.start();
      const cleared = Date.now();
      return {
        kind,
        detail: `worker killed (SIGKILL), restarted after ${RESTART_AFTER_MS / 1000} s`,
        start,
        cleared,
        end: cleared,
      };
    }
    case 'restart-postgres': {
      crashPostgres(cluster.postgres!);
      await sleep(POSTGRES_DOWN_MS);
      restartPostgres(cluster.postgres!);
      const cleared = Date.now();
      return {
        kind,
        detail: `immediate shutdown, started again after ${POSTGRES_DOWN_MS / 1000} s`,
        start,
        cleared,
        end: cleared,
      };
    }
    case 'freeze-postgres': {
      freezePostgres(cluster.postgres!, true);
      await sleep(FREEZE_MS);
      freezePostgres(cluster.postgres!, false);
      const cleared = Date.now();
      return { kind, detail: `SIGSTOP for ${FREEZE_MS / 1000} s`, start, cleared, end: cleared };
    }
    case 'fill-disk': {
      const filler = path.join(context.diskDir!, 'filler');
      fillDisk(filler);
      await sleep(DISK_FULL_MS);
      fs.rmSync(filler, { force: true });
      const cleared = Date.now();
      return { kind, detail: `file system full for ${DISK_FULL_MS / 1000} s`, start, cleared, end: cleared };
    }
    case 'cut-connection': {
      const instance = cluster.instances[Math.floor(Math.random() * cluster.instances.length)]!;
      const detail = await context.cutConnection!(instance);
      const end = Date.now();
      return { kind, detail, start, cleared: end, end };
    }
  }
}

/** Writes zeros until the file system is full (ENOSPC); bounded by the file system's size. */
function fillDisk(file: string): void {
  const chunk = Buffer.alloc(1024 * 1024);
  const fd = fs.openSync(file, 'w');
  try {
    for (let n = 0; n < 100_000; n++) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // the last few bytes: a partial chunk fits where a whole one did not
    try {
      for (let n = 0; n < 1_000; n++) fs.writeSync(fd, Buffer.alloc(4096));
    } catch {
      // full
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A small file system for the SQLite run, whose disk `fill-disk` fills: a tmpfs (needs root and mount). Null,
 * with the reason, when it cannot be mounted: the run then skips the fault and says so.
 */
export function mountSmallDisk(dir: string, megabytes: number): { ok: true } | { ok: false; reason: string } {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: String((error as { stderr?: Buffer }).stderr ?? error).trim() };
  }
}

export function unmountSmallDisk(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  } catch {
    // not mounted
  }
}

/**
 * Sends a charge to `instance` on a raw connection and destroys the connection after `afterMs` (mid-request:
 * the request was sent, the answer not read). Resolves once the connection is gone.
 */
export async function sendAndCut(
  instance: ServiceProcess,
  authorization: string,
  key: string,
  body: unknown,
  afterMs: number,
): Promise<void> {
  const payload = JSON.stringify(body);
  const socket = net.connect(instance.port!, '127.0.0.1');
  await new Promise<void>((resolve) => {
    socket.once('connect', () => {
      socket.write(
        `POST /v1/charges HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\n` +
          `Content-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, afterMs);
    });
    socket.once('error', () => resolve());
  });
}
