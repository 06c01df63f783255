import fs from 'node:fs/promises';
import { expect, test } from 'vitest';
import { generateNodeTypes, NODE_TYPES_FILE } from '../../scripts/node-types.js';

// CI's guard that @vigia/node cannot drift from the API: the checked-in types are what the current route schemas
// produce. When it fails, run `npm run build:node-types` and commit src/node/src/openapi.ts.
test('src/node/src/openapi.ts is what the current API generates', async () => {
  const generated = await generateNodeTypes();
  const checkedIn = await fs.readFile(NODE_TYPES_FILE, 'utf8');
  expect(
    checkedIn === generated,
    'src/node/src/openapi.ts is out of date with the API: run `npm run build:node-types` and commit it.',
  ).toBe(true);
}, 120_000);
