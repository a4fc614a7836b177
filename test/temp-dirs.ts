import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

/**
 * The temporary folders the tests make, each kept under the test file that made it and removed
 * when that file's tests and hooks have ended (test/setup.ts, run before every file, registers
 * the removal). A worker runs several files one after another with its modules shared (isolate:
 * off), so the registry outlives a file and is keyed by the file's path; removing at each file's
 * end, rather than at the worker's exit, holds however the worker ends (a pool may kill it) and
 * never takes a folder from a file still running.
 */
const made = new Map<string, Set<string>>();
/** The folders a file shares, by prefix: made on first use, removed with the file's others. */
const shared = new Map<string, Map<string, string>>();

/** The test file running in this worker ('' outside one). */
const currentFile = (): string => expect.getState().testPath ?? '';

/** A new temporary folder, removed after the test file's tests (`remove()` removes it sooner). */
export function tempDir(prefix = 'edp-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = currentFile();
  let dirs = made.get(file);
  if (dirs === undefined) made.set(file, (dirs = new Set()));
  dirs.add(dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The one folder of this prefix that the running test file's tests share. */
export function fileTempDir(prefix: string): string {
  const file = currentFile();
  let byPrefix = shared.get(file);
  if (byPrefix === undefined) shared.set(file, (byPrefix = new Map()));
  let dir = byPrefix.get(prefix);
  if (dir === undefined) byPrefix.set(prefix, (dir = tempDir(prefix).dir));
  return dir;
}

/** Removes every folder a test file made; the next folder it asks for is a new one. */
export function removeTempDirs(file: string): void {
  for (const dir of made.get(file) ?? []) rmSync(dir, { recursive: true, force: true });
  made.delete(file);
  shared.delete(file);
}
