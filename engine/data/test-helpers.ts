/**
 * Shared helpers for the data engine's tests (not a test file itself, so jest does not run it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The repository root, found by walking up from the compiled test (works from dist/ and .build-data/). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'engine', 'data'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('repository root not found');
    dir = parent;
  }
  return dir;
}

/** Folder of the shared real-world CSV datasets: `shared/datasets` beside the clone. */
export const DATASETS_DIR = process.env.DATASETS_DIR ?? join(repoRoot(), '..', 'shared', 'datasets');

/** Path of a shared dataset CSV. */
export function dataset(name: string): string {
  return join(DATASETS_DIR, `${name}.csv`);
}

/** Path of a committed fixture under engine/data/testdata. */
export function fixture(name: string): string {
  return join(repoRoot(), 'engine', 'data', 'testdata', name);
}

/** A fresh temporary folder and a function removing it. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Relative closeness used against pandas reference values. */
export function expectClose(actual: number | null | undefined, expected: number, rel = 1e-9, label = ''): void {
  if (actual === null || actual === undefined) throw new Error(`${label}: expected ${expected}, got ${actual}`);
  const tol = rel * Math.max(Math.abs(expected), Math.abs(actual)) + 1e-12;
  if (Math.abs(actual - expected) > tol) throw new Error(`${label}: expected ${expected}, got ${actual}`);
}
