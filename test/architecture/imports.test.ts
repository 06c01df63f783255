import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * The import direction of docs/contributing.md ("Layers"), checked over the real import graph: every relative
 * import, export-from and dynamic import() of src/server and src/sdk, type-only ones included.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const SERVER = 'src/server';
const SDK = 'src/sdk/src';

type Layer = 'composition' | 'resource' | 'http' | 'db' | 'migration' | 'core' | 'config' | 'base';

// error-codes.ts lists every resource's error catalogue, as app.ts lists every resource's routes.
const COMPOSITION = new Set(['app.ts', 'bootstrap.ts', 'cli.ts', 'error-codes.ts', 'index.ts']);
const BASE = new Set(['errors.ts', 'clock.ts']);

/** The layer of a file under src/server (path relative to it). */
function layerOf(file: string): Layer {
  const [top] = file.split('/');
  if (COMPOSITION.has(file)) return 'composition';
  // The dashboard mounts the API's route plugins again under its session auth (docs/dashboard.md): a second
  // composition of the same resources, not a resource of its own.
  if (top === 'dashboard') return 'composition';
  if (BASE.has(file)) return 'base';
  if (file === 'config.ts') return 'config';
  // The migrations themselves; their index.ts, which lists them, belongs to db/.
  if (/^db\/migrations\/\d{4}_/.test(file)) return 'migration';
  if (top === 'db' || top === 'http' || top === 'core') return top;
  return 'resource';
}

/** What each layer may import (besides its own folder); resources may import each other. */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  composition: ['composition', 'resource', 'http', 'db', 'migration', 'core', 'config', 'base'],
  resource: ['resource', 'http', 'db', 'core', 'config', 'base'],
  http: ['db', 'core', 'config', 'base'],
  db: ['migration', 'core', 'base'],
  // A migration is frozen: it imports kysely only, never the code that changes after it is applied.
  migration: [],
  core: ['base'],
  config: ['core', 'base'],
  base: ['base'],
};

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Why an import is against the direction, or null when it is allowed. */
function violation({ from, to, typeOnly }: Import): string | null {
  const source = layerOf(from);
  const target = layerOf(to);
  const sameFolder = from.split('/')[0] === to.split('/')[0] && from.includes('/');
  if (source === 'migration') return 'a migration imports only kysely';
  if (sameFolder) return null;
  // The one place that names every table: type imports of each resource's table.ts.
  if (from === 'db/database.ts' && typeOnly && /^[a-z-]+\/table\.ts$/.test(to)) return null;
  // ApiError's code is the union of the catalogues' codes: a type, read from the registry that lists them.
  if (from === 'errors.ts' && typeOnly && to === 'error-codes.ts') return null;
  if (source === 'resource' && to.startsWith('webhooks/') && !typeOnly)
    return 'resources receive the outbox from the app (app.outbox) and import webhooks/ for types only';
  if (from.startsWith('webhooks/') && target === 'resource')
    return 'webhooks/ imports no other resource: app.ts hands it what it needs';
  if (!MAY_IMPORT[source].includes(target)) return `${source} may not import ${target}`;
  return null;
}

/**
 * Imports against the direction that are known and owned by other work; each names what removes it. The test
 * below fails when one of them is gone, so that its entry is removed with it.
 */
const KNOWN_EXCEPTIONS: readonly string[] = [];

/** The known exceptions the graph no longer has: their entries must go. */
const staleExceptions = (exceptions: readonly string[], found: readonly string[]) =>
  exceptions.filter((edge) => !found.includes(edge));

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .filter((file) => !file.split(path.sep).some((part) => part === 'dist' || part === 'node_modules'))
    .map((file) => file.split(path.sep).join('/'));
}

/** Every module specifier of a file, with whether it imports types only. */
function specifiers(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypes =
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly) &&
        clause?.name === undefined;
      found.push({
        specifier: node.moduleSpecifier.text,
        typeOnly: Boolean(clause?.isTypeOnly || allNamedTypes),
      });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The relative imports of src/server, as paths relative to it (`.js` specifiers name `.ts` files). */
function serverImports(): Import[] {
  const root = path.join(repoRoot, SERVER);
  return sourceFiles(SERVER).flatMap((from) =>
    specifiers(path.join(root, from))
      .filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier, typeOnly }) => {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
        return { from, to: target.replace(/\.js$/, '.ts'), typeOnly };
      }),
  );
}

/** Every import of src/server with its specifier as written and the names it imports (bare packages included). */
function serverModuleImports(): { from: string; specifier: string; names: string[]; typeOnly: boolean }[] {
  const root = path.join(repoRoot, SERVER);
  return sourceFiles(SERVER).flatMap((from) => {
    const file = path.join(root, from);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    return source.statements.flatMap((statement) => {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const elements = bindings && ts.isNamedImports(bindings) ? bindings.elements : [];
      return [
        {
          from,
          specifier: statement.moduleSpecifier.text,
          names: elements.filter((element) => !element.isTypeOnly).map((element) => element.name.text),
          typeOnly:
            Boolean(clause?.isTypeOnly) || (elements.length > 0 && elements.every((e) => e.isTypeOnly)),
        },
      ];
    });
  });
}

/** A resource's domain functions: its service.ts files, and the risk engine (its routes and jobs aside). */
const isService = (file: string) =>
  /(^|\/)service\.ts$/.test(file) || (file.startsWith('risk/') && !/(routes|-purge)\.ts$/.test(file));

/** Why an import breaks a boundary rule of docs/contributing.md ("A resource's files"), or null. */
function boundaryViolation(edge: {
  from: string;
  specifier: string;
  names: string[];
  typeOnly: boolean;
}): string | null {
  const { from, specifier, names, typeOnly } = edge;
  if (isService(from) && (specifier === 'fastify' || specifier.startsWith('@fastify/')))
    return 'a service never imports fastify: routes pass it what it needs';
  if (isService(from) && /(^|\/|-)present\.js$/.test(specifier) && !typeOnly)
    return 'a service never imports a presenter: routes present (events.ts presents event data)';
  if (isService(from) && /(^|\/|-)schemas?\.js$/.test(specifier) && !typeOnly)
    return "a service never imports a schema's values: constants it checks live in a domain module";
  const isMigration = /^db\/migrations\/\d{4}_/.test(from);
  if (
    specifier === 'kysely' &&
    !from.startsWith('db/') &&
    !isMigration &&
    names.some((name) => /Adapter$/.test(name))
  )
    return "only db/ asks for the dialect (db/dialect.ts's dialectOf)";
  return null;
}

/**
 * Boundary breaks owned by other work, each with what removes it; the test fails when one is gone.
 * The submerchant and bank-account services present their event payloads themselves (as charges/ did before events.ts).
 */
const KNOWN_BOUNDARY_EXCEPTIONS: readonly string[] = [
  'bank-accounts/service.ts -> ./present.js',
  'disputes/service.ts -> ./present.js',
  'submerchants/documents/service.ts -> ./present.js',
  'submerchants/review/service.ts -> ../documents/present.js',
  'submerchants/review/service.ts -> ../present.js',
  'submerchants/review/service.ts -> ../status-history-present.js',
  'submerchants/service.ts -> ./present.js',
];

describe('import direction (docs/contributing.md, "Layers")', () => {
  const imports = serverImports();
  const violations = imports
    .filter((edge) => violation(edge) !== null)
    .map((edge) => `${edge.from} -> ${edge.to}`);

  test('the graph is read: app.ts imports the charges routes, a rule imports its types', () => {
    expect(imports).toContainEqual({ from: 'app.ts', to: 'charges/routes.ts', typeOnly: false });
    expect(imports).toContainEqual({
      from: 'risk/rules/automation-detected.ts',
      to: 'risk/types.ts',
      typeOnly: false,
    });
    expect(imports.some((edge) => edge.from === 'db/database.ts' && edge.typeOnly)).toBe(true);
  });

  test('no import runs against the direction, except the known ones', () => {
    expect(violations.filter((edge) => !KNOWN_EXCEPTIONS.includes(edge))).toEqual([]);
  });

  test('every known exception still exists (remove the entry once it is fixed)', () => {
    expect(staleExceptions(KNOWN_EXCEPTIONS, violations)).toEqual([]);
    // The list is empty today; the check still reports an entry whose import is gone.
    expect(staleExceptions(['core/ids.ts -> http/auth.ts'], violations)).toEqual([
      'core/ids.ts -> http/auth.ts',
    ]);
  });

  test('migrations import kysely only', () => {
    const root = path.join(repoRoot, SERVER, 'db/migrations');
    const migrations = fs.readdirSync(root).filter((file) => /^\d{4}_.+\.ts$/.test(file));
    expect(migrations.length).toBeGreaterThan(0);
    for (const file of migrations) {
      const modules = specifiers(path.join(root, file)).map(({ specifier }) => specifier);
      expect(
        modules.every((module) => module === 'kysely'),
        `${file} imports ${modules.join(', ')}`,
      ).toBe(true);
    }
  });

  test('the SDK imports nothing of the service and no Node module (it runs in browsers)', () => {
    for (const file of sourceFiles(SDK)) {
      for (const { specifier } of specifiers(path.join(repoRoot, SDK, file))) {
        expect(specifier.startsWith('node:'), `${file} imports ${specifier}`).toBe(false);
        if (specifier.startsWith('.')) {
          const target = path.posix.normalize(path.posix.join(SDK, path.posix.dirname(file), specifier));
          expect(target.startsWith(`${SDK}/`), `${file} imports ${specifier}`).toBe(true);
        }
      }
    }
  });

  test('tests mirror src: every test/server/<dir> names a src/server/<dir> (docs/contributing.md, "Tests")', () => {
    const folders = (dir: string) =>
      fs
        .readdirSync(path.join(repoRoot, dir), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
        .map((entry) => entry.name);
    const sourceFolders = folders(SERVER);
    expect(sourceFolders).toContain('submerchants');
    expect(folders('test/server').filter((folder) => !sourceFolders.includes(folder))).toEqual([]);
  });

  test('boundaries: services import no fastify, presenter or schema value; only db/ asks for the dialect', () => {
    const found = serverModuleImports()
      .filter((edge) => boundaryViolation(edge) !== null)
      .map((edge) => `${edge.from} -> ${edge.specifier}`);
    expect(found.filter((edge) => !KNOWN_BOUNDARY_EXCEPTIONS.includes(edge))).toEqual([]);
    expect(staleExceptions(KNOWN_BOUNDARY_EXCEPTIONS, found)).toEqual([]);
  });

  test('the boundary rules catch what they forbid', () => {
    const edge = (from: string, specifier: string, names: string[] = [], typeOnly = false) => ({
      from,
      specifier,
      names,
      typeOnly,
    });
    expect(boundaryViolation(edge('risk/test-outcomes.ts', 'fastify', [], true))).toMatch(
      /never imports fastify/,
    );
    expect(boundaryViolation(edge('charges/service.ts', './present.js', ['presentCharge']))).toMatch(
      /presenter/,
    );
    expect(
      boundaryViolation(edge('charges/service.ts', './schemas.js', ['SUPPORTED_PAYMENT_METHODS'])),
    ).toMatch(/schema's values/);
    expect(boundaryViolation(edge('charges/service.ts', './schemas.js', [], true))).toBeNull();
    expect(boundaryViolation(edge('charges/consume.ts', 'kysely', ['PostgresAdapter', 'sql']))).toMatch(
      /only db/,
    );
    expect(boundaryViolation(edge('db/dialect.ts', 'kysely', ['PostgresAdapter']))).toBeNull();
    expect(boundaryViolation(edge('charges/routes.ts', './present.js', ['presentCharge']))).toBeNull();
  });

  test('every module of src/server is imported by another, or is an entry point', () => {
    const imported = new Set(serverImports().map((edge) => edge.to));
    const ENTRY_POINTS = ['cli.ts', 'index.ts'];
    const orphans = sourceFiles(SERVER).filter(
      (file) => !imported.has(file) && !ENTRY_POINTS.includes(file) && !/^db\/migrations\/\d{4}_/.test(file),
    );
    // A module nothing imports is dead, or (like a `declare module` widening) acts without anyone seeing it.
    expect(orphans).toEqual([]);
  });

  test('the rules catch what they forbid', () => {
    expect(violation({ from: 'http/lists.ts', to: 'charges/service.ts', typeOnly: false })).toBe(
      'http may not import resource',
    );
    expect(violation({ from: 'db/lists.ts', to: 'http/lists.ts', typeOnly: true })).toBe(
      'db may not import http',
    );
    expect(violation({ from: 'core/ids.ts', to: 'db/columns.ts', typeOnly: false })).toBe(
      'core may not import db',
    );
    expect(violation({ from: 'charges/service.ts', to: 'app.ts', typeOnly: true })).toBe(
      'resource may not import composition',
    );
    expect(violation({ from: 'db/migrations/0009_x.ts', to: 'db/columns.ts', typeOnly: false })).toBe(
      'a migration imports only kysely',
    );
    expect(violation({ from: 'webhooks/endpoint-routes.ts', to: 'charges/events.ts', typeOnly: false })).toBe(
      'webhooks/ imports no other resource: app.ts hands it what it needs',
    );
    expect(violation({ from: 'charges/service.ts', to: 'webhooks/outbox.ts', typeOnly: false })).toBe(
      'resources receive the outbox from the app (app.outbox) and import webhooks/ for types only',
    );
    expect(violation({ from: 'charges/service.ts', to: 'webhooks/outbox.ts', typeOnly: true })).toBeNull();
    expect(violation({ from: 'db/database.ts', to: 'charges/table.ts', typeOnly: true })).toBeNull();
    expect(violation({ from: 'db/database.ts', to: 'charges/service.ts', typeOnly: true })).toBe(
      'db may not import resource',
    );
  });
});
