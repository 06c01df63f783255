import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { README_FILE, withConfigTable } from '../../scripts/config-docs.js';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/server/config.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Every file of the service's source (its build output left out). */
function serverSources(dir = path.join(repoRoot, 'src/server')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'dist' || entry.name === 'node_modules' ? [] : serverSources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('configuration: one source, src/server/config.ts', () => {
  test("README's configuration table is the one config.ts generates", () => {
    const readme = fs.readFileSync(README_FILE, 'utf8');
    expect(
      withConfigTable(readme) === readme,
      "README.md's configuration table differs from src/server/config.ts: run `npm run docs:config` and commit it.",
    ).toBe(true);
  });

  test('the README has one configuration table', () => {
    const readme = fs.readFileSync(README_FILE, 'utf8');
    expect(readme.match(/^\| variable /gm)).toHaveLength(1);
  });

  test('loadConfig reads every described variable and no other', () => {
    const read = new Set<string>();
    const env = new Proxy({ VIGIA_ENV: 'test' } as NodeJS.ProcessEnv, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    });
    loadConfig(env);
    expect([...read].sort()).toEqual(Object.keys(CONFIG_VARIABLES).sort());
  });

  test('no other file of the service reads the environment', () => {
    const readers = serverSources()
      .filter((file) => !file.endsWith(`${path.sep}config.ts`))
      .flatMap((file) =>
        // VITEST is the test runner's own marker (a cheaper scrypt cost under test), not a deployment's setting.
        [...fs.readFileSync(file, 'utf8').matchAll(/process\.env(?!\.VITEST\b)/g)].map(() =>
          path.relative(repoRoot, file),
        ),
      );
    expect(readers).toEqual([]);
  });

  test('VIGIA_PUBLIC_URL is an http(s) URL, kept without its trailing slash', () => {
    const base = { VIGIA_ENV: 'test' };
    expect(loadConfig({ ...base, VIGIA_PUBLIC_URL: 'https://pay.example.com/' }).publicUrl).toBe(
      'https://pay.example.com',
    );
    expect(loadConfig(base).publicUrl).toBeUndefined();
    expect(() => loadConfig({ ...base, VIGIA_PUBLIC_URL: 'pay.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, VIGIA_PUBLIC_URL: 'ftp://pay.example.com' })).toThrow(
      /VIGIA_PUBLIC_URL/,
    );
  });
});
