import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface BenchFigure {
  benchmark: string;
  metric: string;
  value: number;
  unit: string;
  target?: string;
  /** Whether the figure meets its target; undefined where there is no target. */
  pass?: boolean;
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function markdownTable(figures: BenchFigure[]): string {
  const rows = figures.map((figure) => {
    const verdict = figure.pass === undefined ? '' : figure.pass ? 'met' : '**missed**';
    return `| ${figure.benchmark} | ${figure.metric} | ${figure.value.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${figure.unit} | ${figure.target ?? ''} | ${verdict} |`;
  });
  return ['| benchmark | metric | value | target | |', '|---|---|---|---|---|', ...rows].join('\n');
}

const STORE_SUFFIX = / \((SQLite|PostgreSQL)\)$/;

/** The figures of benchmarks run on both stores, one row per metric with SQLite and PostgreSQL side by side. */
export function sideBySide(figures: BenchFigure[]): string {
  const rows = new Map<string, Partial<Record<'SQLite' | 'PostgreSQL', BenchFigure>>>();
  for (const figure of figures) {
    const store = STORE_SUFFIX.exec(figure.benchmark)?.[1] as 'SQLite' | 'PostgreSQL' | undefined;
    if (!store) continue;
    const key = `${figure.benchmark.replace(STORE_SUFFIX, '')} | ${figure.metric}`;
    rows.set(key, { ...rows.get(key), [store]: figure });
  }
  if (rows.size === 0) return '';
  const cell = (figure?: BenchFigure) => {
    if (!figure) return '—';
    const verdict = figure.pass === undefined ? '' : figure.pass ? ' (met)' : ' (**missed**)';
    return `${figure.value.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${figure.unit}${verdict}`;
  };
  const lines = [...rows].map(([key, stores]) => {
    const target = stores.SQLite?.target ?? stores.PostgreSQL?.target ?? '';
    return `| ${key} | ${cell(stores.SQLite)} | ${cell(stores.PostgreSQL)} | ${target} |`;
  });
  return ['| benchmark | metric | SQLite | PostgreSQL | target |', '|---|---|---|---|---|', ...lines].join(
    '\n',
  );
}

export function writeResults(figures: BenchFigure[]): string {
  const dir = path.resolve(import.meta.dirname, '../results');
  fs.mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  fs.writeFileSync(
    path.join(dir, 'latest.json'),
    `${JSON.stringify({ at, machine: machine(), figures }, null, 2)}\n`,
  );
  const both = sideBySide(figures);
  const table = `Measured ${at} on ${machine()}\n\n${both ? `${both}\n\n` : ''}${markdownTable(figures)}\n`;
  fs.writeFileSync(path.join(dir, 'latest.md'), table);
  return table;
}
