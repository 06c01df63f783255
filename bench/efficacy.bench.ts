import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { figures, markdown, summarise } from './efficacy/report.js';
import { fullMatrix, runMatrix } from './efficacy/rows.js';
import type { BenchFigure } from './lib/report.js';
import { ensureSdkBuilt, repoRoot } from './lib/sdk-dist.js';

/**
 * Issue 9: the three-engine efficacy lab. Runs every bot and human row against the real service, prints the
 * confusion matrix and writes docs/efficacy.md with the machine and versions.
 */
export async function efficacyBenchmark(_durationSeconds: number): Promise<BenchFigure[]> {
  ensureSdkBuilt();
  const results = await runMatrix(fullMatrix(), (line) => console.error(line));
  const summary = summarise(results);
  const at = new Date().toISOString();
  const doc = path.join(repoRoot, 'docs/efficacy.md');
  fs.writeFileSync(doc, markdown(summary, at));
  // Aligned tables, as `biome check` wants them.
  execFileSync(path.join(repoRoot, 'node_modules/.bin/biome'), ['format', '--write', doc], {
    stdio: 'ignore',
  });
  const c = summary.confusion;
  console.error(
    `confusion matrix: bots flagged ${c.botFlagged}, bots missed ${c.botMissed}; humans flagged ${c.humanFlagged}, humans passed ${c.humanPassed}`,
  );
  return figures(summary);
}
