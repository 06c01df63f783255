/**
 * Issue 14: old code against new for POST /v1/charges, in one run on the same data. Two checkouts' charge-create
 * servers (`CPU_A`, `CPU_B`: repository roots, e.g. `git archive main` unpacked with node_modules linked, and this
 * one) on one store (`CPU_STORE`, PostgreSQL by default: one durable server for both), loaded in turn
 * ref–A–B–B–A–ref (`CPU_ROUNDS` rounds of `CPU_COUNT` charges, 10 connections), with the CPU each side spent per
 * charge read from /proc: the server's process and, on PostgreSQL, every backend of the cluster. CPU per charge moves
 * far less with the machine's load than throughput does. `CPU_STATEMENTS=1` also prints pg_stat_statements per
 * database (mean planning and execution time per statement) and keeps a sample of plans (auto_explain) in
 * /tmp/charge-cpu-postgres.log. Run with `npx tsx bench/charge-cpu.ts`; not part of `npm run bench`.
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { startPostgres, stopPostgres } from '../scripts/postgres-lib.mjs';
import { load, type RequestSpec } from './lib/load.js';
import type { WriteServerInfo } from './lib/write-benchmark.js';

const TICK_MS = 10; // USER_HZ 100
const store = process.env.CPU_STORE ?? 'PostgreSQL';
const rounds = Number(process.env.CPU_ROUNDS ?? 2);
const count = Number(process.env.CPU_COUNT ?? 400);
const roots = { A: process.env.CPU_A!, B: process.env.CPU_B! };

function children(pid: number): number[] {
  const all: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) all.push(Number(entry));
    } catch {}
  }
  return all;
}
function tree(pid: number): number[] {
  return [pid, ...children(pid).flatMap(tree)];
}
function cpuOf(pids: number[]): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {}
  }
  return cpu;
}
/** CPU spent since `before` by the processes alive now (a process that exited meanwhile is lost). */
function cpuSince(before: Map<number, number>, pids: number[]): number {
  let ms = 0;
  for (const [pid, now] of cpuOf(pids)) ms += now - (before.get(pid) ?? 0);
  return ms;
}

let pg: Awaited<ReturnType<typeof startPostgres>> | null = null;
async function env(): Promise<Record<string, string>> {
  if (store === 'SQLite') return {};
  const { default: Pg } = await import('pg');
  const name = `cpu_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new Pg.Client({ connectionString: pg!.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  if (process.env.CPU_STATEMENTS) await admin.query('create extension if not exists pg_stat_statements');
  console.error(`database ${name}`);
  await admin.end();
  return { BENCH_DATABASE_URL: pg!.url.replace(/\/postgres$/, `/${name}`) };
}

if (store !== 'SQLite')
  pg = await startPostgres({
    settings: {
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
      max_connections: 200,
      ...(process.env.CPU_STATEMENTS && {
        shared_preload_libraries: 'pg_stat_statements,auto_explain',
        'pg_stat_statements.track_planning': 'on',
        'auto_explain.log_min_duration': '0',
        'auto_explain.log_analyze': 'on',
        'auto_explain.log_nested_statements': 'on',
        'auto_explain.sample_rate': '0.01',
        log_min_messages: 'log',
      }),
    },
  });
interface Server {
  info: WriteServerInfo;
  pid: number;
  stop: () => Promise<void>;
}
const servers: Record<string, Server> = {};
for (const [side, root] of Object.entries(roots)) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/servers/charge-create.ts')],
    {
      cwd: root,
      env: { ...process.env, VIGIA_ENV: 'test', LOG_LEVEL: 'silent', ...(await env()) },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const info = await new Promise<WriteServerInfo>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`${side} exited with ${code}`)));
  });
  servers[side] = {
    info,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function pooled(info: WriteServerInfo, side: 'ours' | 'reference', n: number) {
  const response = await fetch(info.pool!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count: n, for: side }),
  });
  const requests = (await response.json()) as RequestSpec[];
  let next = 0;
  return () => requests[Math.min(next++, requests.length - 1)]!;
}

type Phase = 'ref' | 'A' | 'B';
const totals: Record<Phase, { n: number; ms: number; cpu: number; pgCpu: number }> = {
  ref: { n: 0, ms: 0, cpu: 0, pgCpu: 0 },
  A: { n: 0, ms: 0, cpu: 0, pgCpu: 0 },
  B: { n: 0, ms: 0, cpu: 0, pgCpu: 0 },
};
async function run(phase: Phase, n: number, measured: boolean) {
  const server = phase === 'B' ? servers.B! : servers.A!;
  const base = phase === 'ref' ? server.info.reference : server.info.ours;
  const next = await pooled(server.info, phase === 'ref' ? 'reference' : 'ours', n);
  const cpu0 = cpuOf(tree(server.pid));
  const pg0 = cpuOf(pg ? tree(pg.pid) : []);
  const t0 = performance.now();
  const result = await load({
    url: `${base}/v1/charges`,
    method: 'POST',
    headers: server.info.headers,
    amount: n,
    next,
  });
  const elapsed = performance.now() - t0;
  if (result.non2xx || result.errors)
    throw new Error(`${phase}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  if (!measured) return;
  const cpu = cpuSince(cpu0, tree(server.pid));
  const pgCpu = cpuSince(pg0, pg ? tree(pg.pid) : []);
  const t = totals[phase];
  t.n += n;
  t.ms += elapsed;
  t.cpu += cpu;
  t.pgCpu += pgCpu;
  console.error(
    `${phase}: ${((n * 1000) / elapsed).toFixed(0)} req/s, node ${(cpu / n).toFixed(2)}, PostgreSQL ${(pgCpu / n).toFixed(2)} ms/charge`,
  );
}

try {
  await run('ref', 300, false);
  await run('A', 300, false);
  await run('B', 300, false);
  for (let round = 0; round < rounds; round++) {
    for (const phase of ['ref', 'A', 'B', 'B', 'A', 'ref'] as Phase[]) await run(phase, count, true);
  }
  console.error(`load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  if (pg && process.env.CPU_STATEMENTS) await printStatements(pg.url);
  for (const [phase, t] of Object.entries(totals)) {
    console.log(
      `${store} ${phase}: ${((t.n * 1000) / t.ms).toFixed(0)} req/s, node CPU ${(t.cpu / t.n).toFixed(2)} ms/charge` +
        (pg ? `, PostgreSQL CPU ${(t.pgCpu / t.n).toFixed(2)} ms/charge` : ''),
    );
  }
} finally {
  for (const server of Object.values(servers)) await server.stop();
  if (pg && process.env.CPU_STATEMENTS)
    fs.copyFileSync(path.join(pg.baseDir, 'postgres.log'), '/tmp/charge-cpu-postgres.log');
  if (pg) await stopPostgres(pg);
}

/** Per database (A's, B's), the statements by total time: calls, mean planning and execution time. */
async function printStatements(url: string) {
  const { default: Pg } = await import('pg');
  const client = new Pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    `select d.datname, s.calls, s.total_plan_time / s.calls as plan, s.total_exec_time / s.calls as exec,
            s.total_exec_time + s.total_plan_time as total, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 150) as query
       from pg_stat_statements s join pg_database d on d.oid = s.dbid
      where d.datname like 'cpu_%' order by d.datname, total desc`,
  );
  for (const row of rows.filter((r) => r.calls >= 100))
    console.log(
      `${row.datname} ${String(row.calls).padStart(6)} plan ${row.plan.toFixed(3)} exec ${row.exec.toFixed(3)} ms  ${row.query}`,
    );
  await client.end();
}
