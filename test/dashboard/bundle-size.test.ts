// What the dashboard's first load costs: the entry (frame, router, sign-in) and the language's catalogue, gzipped as
// servers send them. Each page area and the chart library are chunks loaded when first opened.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sources = path.join(root, 'src/dashboard/src');
const dist = path.join(root, 'src/dashboard/dist');
/** 20 KB = 20 × 1024 bytes of JavaScript, gzip level 6 (docs/decisions/dashboard-message-catalogue.md). */
const FIRST_LOAD_BUDGET = 20 * 1024;

function buildIsStale(): boolean {
  const entry = path.join(dist, 'main.js');
  if (!existsSync(entry)) return true;
  const inputs = readdirSync(sources, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(sources, file))
    .concat(path.join(root, 'rollup.config.mjs'));
  return Math.max(...inputs.map((file) => statSync(file).mtimeMs)) > statSync(entry).mtimeMs;
}

beforeAll(() => {
  if (buildIsStale()) {
    execFileSync('npm', ['run', '--silent', 'build:dashboard'], {
      cwd: root,
      stdio: 'pipe',
      timeout: 180_000,
    });
  }
}, 200_000);

const gzipped = (file: string) => gzipSync(readFileSync(path.join(dist, file))).length;
/** The chunk rollup named after a module (`chunks/<name>-<hash>.js`). */
function chunk(name: string): string {
  const found = readdirSync(path.join(dist, 'chunks')).filter((file) =>
    new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(file),
  );
  expect(found, name).toHaveLength(1);
  return `chunks/${found[0]}`;
}

test('the first load (entry and one language) stays within 20 KB gzipped, in each language', () => {
  const entry = gzipped('main.js');
  for (const language of ['pt-BR', 'en']) {
    const firstLoad = entry + gzipped(chunk(language));
    console.info(`dashboard first load, ${language}: ${(firstLoad / 1024).toFixed(1)} KB gzipped`);
    expect(firstLoad).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
  }
});

test('the entry carries no words of either language: each catalogue is its own chunk', () => {
  const entry = readFileSync(path.join(dist, 'main.js'), 'utf8');
  expect(entry).not.toContain('Carregando o painel');
  expect(entry).not.toContain('Loading the dashboard');
  expect(readFileSync(path.join(dist, chunk('pt-BR')), 'utf8')).toContain('Carregando o painel');
});

test("a page area's words may load with its page: the risk page's are in no language chunk", () => {
  for (const language of ['pt-BR', 'en']) {
    const words = readFileSync(path.join(dist, chunk(language)), 'utf8');
    expect(words).not.toContain('Desempenho antifraude');
    expect(words).not.toContain('Risk performance');
  }
  const chunks = readdirSync(path.join(dist, 'chunks')).filter((file) => file.endsWith('.js'));
  expect(
    chunks.filter((file) =>
      readFileSync(path.join(dist, 'chunks', file), 'utf8').includes('Desempenho antifraude'),
    ),
  ).toHaveLength(1);
});
