import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { expect, test } from 'vitest';

/**
 * package.json promises `engines.node` ≥ 20.19: every package the service installs in production (the lockfile's
 * non-dev entries, read from what npm put in node_modules) must accept that Node, or the promise is false.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));

const declared: string = read('package.json').engines.node;
const oldest = semver.minVersion(declared)?.version ?? '';

interface LockEntry {
  dev?: boolean;
  link?: boolean;
  optional?: boolean;
}

test('the oldest Node the project declares is 20.19', () => {
  expect(oldest).toBe('20.19.0');
});

test("every installed production dependency's engines.node admits the oldest declared Node", () => {
  const packages: Record<string, LockEntry> = read('package-lock.json').packages;
  const production = Object.entries(packages).filter(
    ([location, entry]) => location.includes('node_modules/') && !entry.dev && !entry.link,
  );
  expect(production.length).toBeGreaterThan(50);
  const refused = production.flatMap(([location, entry]) => {
    const manifest = path.join(repoRoot, location, 'package.json');
    if (!fs.existsSync(manifest)) return entry.optional ? [] : [`${location} (not installed)`];
    const range: string | undefined = JSON.parse(fs.readFileSync(manifest, 'utf8')).engines?.node;
    return range && !semver.satisfies(oldest, range) ? [`${location} requires node ${range}`] : [];
  });
  expect(refused).toEqual([]);
});
