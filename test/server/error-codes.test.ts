import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { generateErrorDocs } from '../../scripts/error-docs.js';
import { ERROR_CATALOGUES, ERRORS, registerCatalogues } from '../../src/server/error-codes.js';
import type { ErrorCatalogue } from '../../src/server/errors.js';

/** The error catalogues (src/server/error-codes.ts), the codes thrown in src/server, and docs/errors.md. */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(repoRoot, 'src/server');

function serverFiles(): string[] {
  return fs
    .readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .filter((file) => !file.split(path.sep).some((part) => part === 'dist' || part === 'node_modules'))
    .map((file) => file.split(path.sep).join('/'));
}

/** Each catalogue by its exported name (`CHARGES_ERRORS`), as the files that define them export it. */
const CATALOGUE_BY_EXPORT: Record<string, ErrorCatalogue> = Object.fromEntries(
  Object.entries(ERROR_CATALOGUES).map(([name, catalogue]) => [`${name.toUpperCase()}_ERRORS`, catalogue]),
);

interface Thrown {
  code: string;
  /** The status the call gives the code, when it names one (businessRule: 422, new ApiError: its first argument). */
  status?: number;
  /** The catalogue an `apiError(CATALOGUE, code, …)` takes the code from. */
  catalogue?: string;
  where: string;
}

/** Every code a source file throws or answers with as a string literal, with what the call says of it. */
function thrownCodes(file: string, text: string): Thrown[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Thrown[] = [];
  const literals = (node: ts.Node | undefined): string[] => {
    if (!node) return [];
    if (ts.isStringLiteral(node)) return [node.text];
    if (ts.isConditionalExpression(node)) return [...literals(node.whenTrue), ...literals(node.whenFalse)];
    return [];
  };
  const visit = (node: ts.Node) => {
    const where = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const [first, second] = node.arguments;
      switch (node.expression.text) {
        case 'businessRule':
          for (const code of literals(first)) found.push({ code, status: 422, where });
          break;
        case 'errorBody':
          for (const code of literals(first)) found.push({ code, where });
          break;
        case 'apiError':
          for (const code of literals(second)) {
            found.push({ code, catalogue: first && ts.isIdentifier(first) ? first.text : undefined, where });
          }
          break;
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'ApiError') {
      const [status, code] = node.arguments ?? [];
      const value = status && ts.isNumericLiteral(status) ? Number(status.text) : undefined;
      for (const literal of literals(code)) found.push({ code: literal, status: value, where });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Why a thrown code is wrong, or null: unknown to every catalogue, or thrown with another status than its own. */
function problem(thrown: Thrown): string | null {
  const entry = ERRORS.get(thrown.code);
  if (!entry) return `${thrown.where}: ${thrown.code} is in no error catalogue`;
  if (thrown.status !== undefined && thrown.status !== entry.status) {
    return `${thrown.where}: ${thrown.code} is thrown as ${thrown.status}, its catalogue says ${entry.status}`;
  }
  if (thrown.catalogue && CATALOGUE_BY_EXPORT[thrown.catalogue]?.[thrown.code] === undefined) {
    return `${thrown.where}: ${thrown.code} is not in ${thrown.catalogue}`;
  }
  return null;
}

describe('error catalogues', () => {
  test('every code the service throws is in a catalogue, with its status', () => {
    const thrown = serverFiles().flatMap((file) =>
      thrownCodes(file, fs.readFileSync(path.join(SERVER, file), 'utf8')),
    );
    // The scan sees the throws: the charges' own codes, the general helpers', the dashboard's.
    expect(thrown.map((entry) => entry.code)).toEqual(
      expect.arrayContaining(['SUBMERCHANT_NOT_FOUND', 'NOT_FOUND', 'EMAIL_TAKEN', 'RATE_LIMIT_EXCEEDED']),
    );
    expect(thrown.map(problem).filter((message) => message !== null)).toEqual([]);
  });

  test('the check fails on a code no catalogue has, and on a status its catalogue does not give', () => {
    const source = [
      "throw businessRule('CARD_ON_FIRE', 'The card is on fire.');",
      "throw new ApiError(400, 'TOKEN_EXPIRED', 'x');",
      "throw apiError(GENERAL_ERRORS, 'EMAIL_TAKEN', 'x');",
      "reply.send(errorBody(ok ? 'VALIDATION_ERROR' : 'NOT_A_CODE', 'x'));",
    ].join('\n');
    expect(thrownCodes('x.ts', source).map(problem)).toEqual([
      'x.ts:1: CARD_ON_FIRE is in no error catalogue',
      'x.ts:2: TOKEN_EXPIRED is thrown as 400, its catalogue says 422',
      'x.ts:3: EMAIL_TAKEN is not in GENERAL_ERRORS',
      null,
      'x.ts:4: NOT_A_CODE is in no error catalogue',
    ]);
  });

  test('every catalogue file is listed in the registry (src/server/error-codes.ts)', async () => {
    const files = serverFiles().filter((file) => /(^|\/)errors\.ts$/.test(file));
    for (const file of files) {
      const module = (await import(path.join(SERVER, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!name.endsWith('_ERRORS')) continue;
        expect(
          Object.values(ERROR_CATALOGUES),
          `${file} exports ${name}, missing from error-codes.ts`,
        ).toContain(value);
      }
    }
    expect(Object.keys(ERROR_CATALOGUES)).toEqual(expect.arrayContaining(['general', 'charges', 'webhooks']));
  });

  test('a code defined differently by two catalogues is refused; the same definition twice is one code', () => {
    const entry = { status: 422, meaning: 'm', action: 'a' };
    expect(() =>
      registerCatalogues({ one: { DUPLICATE: entry }, two: { DUPLICATE: { ...entry, status: 409 } } }),
    ).toThrow('error code DUPLICATE is defined differently in the one and two catalogues');
    expect(() =>
      registerCatalogues({ one: { DUPLICATE: entry }, two: { DUPLICATE: { ...entry, action: 'b' } } }),
    ).toThrow(/DUPLICATE/);
    expect([...registerCatalogues({ one: { SAME: entry }, two: { SAME: { ...entry } } }).keys()]).toEqual([
      'SAME',
    ]);
  });

  test('every entry is an UPPER_SNAKE code with an error status, a meaning and an action', () => {
    expect(ERRORS.size).toBeGreaterThan(30);
    for (const [code, entry] of ERRORS) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.meaning.length, code).toBeGreaterThan(10);
      expect(entry.action.length, code).toBeGreaterThan(10);
    }
  });

  test('docs/errors.md is what `npm run docs:errors` generates from the catalogues', async () => {
    const committed = fs.readFileSync(path.join(repoRoot, 'docs/errors.md'), 'utf8');
    const generated = await generateErrorDocs();
    expect(generated).toContain('| `FRAUD_SESSION_REQUIRED` | 422 |');
    expect(committed, 'docs/errors.md is stale: run `npm run docs:errors` and commit it').toBe(generated);
  });
});
