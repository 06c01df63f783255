import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The rules of docs/contributing.md ("A decision") that a reader relies on: one file per decision with a status,
 * all of them in the index, code comments that point to a decision file rather than to an issue, and links to
 * decision files that exist.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const DECISIONS = path.join(repoRoot, 'docs/decisions');
const read = (file: string) => fs.readFileSync(file, 'utf8');

function files(dir: string, pattern: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['dist', 'node_modules'].includes(entry.name) ? [] : files(full, pattern);
    return pattern.test(entry.name) ? [full] : [];
  });
}

const decisionFiles = fs
  .readdirSync(DECISIONS)
  .filter((name) => name.endsWith('.md') && name !== 'README.md');
const STATUS =
  /^Status: (accepted|superseded by \[([\w-]+\.md)\]\(\2\)|accepted, partly superseded by \[([\w-]+\.md)\]\(\3\).*)$/m;

describe('decisions', () => {
  test('there is no single log any more, only docs/decisions/', () => {
    expect(fs.existsSync(path.join(repoRoot, 'docs/decisions.md'))).toBe(false);
    expect(decisionFiles.length).toBeGreaterThan(150);
  });

  test('every decision has a title and a status, and a superseding file that exists', () => {
    const wrong = decisionFiles.flatMap((name) => {
      const text = read(path.join(DECISIONS, name));
      const status = STATUS.exec(text);
      if (!text.startsWith('# ') || !status) return [`${name}: no title or no Status line`];
      const by = status[2] ?? status[3];
      return by && !decisionFiles.includes(by) ? [`${name}: superseded by a missing ${by}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  test('the index lists every decision with its status', () => {
    const index = read(path.join(DECISIONS, 'README.md'));
    const missing = decisionFiles.filter((name) => !index.includes(`](${name})`));
    expect(missing).toEqual([]);
    const superseded = decisionFiles.filter((name) =>
      /^Status: superseded/m.test(read(path.join(DECISIONS, name))),
    );
    for (const name of superseded) expect(index).toMatch(new RegExp(`\\]\\(${name}\\) — superseded by`));
  });
});

describe('references', () => {
  const sources = files(path.join(repoRoot, 'src'), /\.(ts|tsx|mjs)$/).filter(
    (file) => !file.endsWith('openapi.ts'),
  );

  test('code comments point to a decision file, never to an issue number', () => {
    const found = sources.flatMap((file) =>
      [...read(file).matchAll(/\bissue\s+\d+/gi)].map(
        (match) => `${path.relative(repoRoot, file)}: ${match[0]}`,
      ),
    );
    expect(found).toEqual([]);
  });

  test('every docs/decisions/<file> that code or docs name exists', () => {
    const docs = [
      ...files(path.join(repoRoot, 'docs'), /\.md$/),
      path.join(repoRoot, 'README.md'),
      path.join(repoRoot, 'bench/README.md'),
    ];
    const broken = [...sources, ...docs].flatMap((file) =>
      [...read(file).matchAll(/decisions\/([\w-]+\.md)/g)]
        .filter(([, name]) => name !== 'README.md' && !decisionFiles.includes(name!))
        .map(([reference]) => `${path.relative(repoRoot, file)}: ${reference}`),
    );
    expect(broken).toEqual([]);
  });

  test("docs/contributing.md's opening names only files of the repository", () => {
    const opening = read(path.join(repoRoot, 'docs/contributing.md')).split('\n## ')[0]!;
    expect(opening).not.toMatch(/\/work\/|\.\.\/shared\//);
    for (const [, link] of opening.matchAll(/\]\(([^)#]+)/g)) {
      expect(fs.existsSync(path.join(repoRoot, 'docs', link!)), link).toBe(true);
    }
  });
});
