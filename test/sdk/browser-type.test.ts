import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { browserType } from '../../src/sdk/src/browser-type.js';

// The same file holds the service's ua-parser-js mapping to account: both must agree on every vector.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const vectorsFile = path.resolve(repoRoot, '..', 'shared', 'vectors', 'user-agents.json');
const { vectors } = JSON.parse(readFileSync(vectorsFile, 'utf8')) as {
  vectors: { name: string; user_agent: string; type: string }[];
};

describe('browserType', () => {
  it('has vectors for every browser type', () => {
    const types = new Set(vectors.map((v) => v.type));
    expect([...types].sort()).toEqual(['Chrome', 'Edge', 'Firefox', 'Opera', 'Other', 'Safari']);
  });

  it.each(vectors.map((v) => [v.name, v.user_agent, v.type] as const))(
    '%s → %s',
    (_name, userAgent, type) => {
      expect(browserType(userAgent)).toBe(type);
    },
  );

  it('answers Other for strings that are not user agents', () => {
    for (const ua of ['', 'Safari', 'Chrome', 'Mozilla/5.0', 'x'.repeat(5000)])
      expect(browserType(ua)).toBe('Other');
  });
});
