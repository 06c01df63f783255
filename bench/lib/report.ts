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

export function writeResults(figures: BenchFigure[]): string {
  const dir = path.resolve(import.meta.dirname, '../results');
  fs.mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  fs.writeFileSync(
    path.join(dir, 'latest.json'),
    `${JSON.stringify({ at, machine: machine(), figures }, null, 2)}\n`,
  );
  const table = `Measured ${at} on ${machine()}\n\n${markdownTable(figures)}\n`;
  fs.writeFileSync(path.join(dir, 'latest.md'), table);
  return table;
}
