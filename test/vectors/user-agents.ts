import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface UserAgentVector {
  name: string;
  user_agent: string;
  type: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const read = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { vectors: UserAgentVector[] }).vectors;

/**
 * Every user agent both classifiers are held to: the shared vectors (../shared/vectors/user-agents.json) and the
 * project's own (test/vectors/user-agents.json: app shells, TVs, consoles, crawlers, in-app views, forks).
 */
// The shared folder sits beside the repository; VIGIA_SHARED_DIR points elsewhere (a git worktree, say).
const sharedDir = process.env.VIGIA_SHARED_DIR ?? path.resolve(here, '..', '..', '..', 'shared');

export const USER_AGENT_VECTORS: readonly UserAgentVector[] = [
  ...read(path.resolve(sharedDir, 'vectors', 'user-agents.json')),
  ...read(path.resolve(here, 'user-agents.json')),
];
