// What the deploy tests (e2e/deploy-*.test.ts) share: the namespace landlord is installed in, and
// reading the repository's own files (the Dockerfile's neighbours, config/, the IAM samples).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths.js';

/** The namespace config/ installs landlord into. */
export const SYSTEM = 'landlord-system';

/** A file of the repository, as text. */
export const repoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

/** A path under config/. */
export const config = (path: string): string => join(repoRoot, 'config', path);
