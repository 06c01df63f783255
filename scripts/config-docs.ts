// The README's configuration table is generated from CONFIG_VARIABLES in src/server/config.ts, the one place each
// variable is described: `npm run docs:config` rewrites the lines between the markers;
// test/server/config-docs.test.ts fails when the README differs from what this produces.
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONFIG_VARIABLES } from '../src/server/config.js';

export const README_FILE = path.resolve(import.meta.dirname, '../README.md');

const START =
  '<!-- config:start (generated from src/server/config.ts by `npm run docs:config`; do not edit) -->';
const END = '<!-- config:end -->';

/** A Markdown table with its columns padded, as the README's other tables are. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const all = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, column) => Math.max(3, ...all.map((row) => [...(row[column] ?? '')].length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((text, column) => text + ' '.repeat((widths[column] ?? 0) - [...text].length)).join(' | ')} |`;
  const [head = [], ...body] = all;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

export function configTable(): string {
  return table(
    ['variable', 'default', 'accepts', 'meaning'],
    Object.entries(CONFIG_VARIABLES).map(([name, variable]) => [
      `\`${name}\``,
      variable.default,
      variable.accepts,
      variable.meaning,
    ]),
  );
}

/** The README with the generated table between its markers; throws when the markers are missing. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  return `${readme.slice(0, start + START.length)}\n\n${configTable()}\n\n${readme.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const readme = await fs.readFile(README_FILE, 'utf8');
  await fs.writeFile(README_FILE, withConfigTable(readme));
  console.log(`docs:config: wrote ${Object.keys(CONFIG_VARIABLES).length} variables into README.md`);
}
