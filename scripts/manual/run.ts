import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { manPaths, manualFiles } from './pages.js';

/**
 * `npm run manual` (scripts/manual.mjs runs this): writes the manual the command tree gives
 * (docs/commands/*.md, man/*.1) and package.json's `man` list; with `--check`, writes nothing and
 * fails, naming each file, when the checked-in manual is not what the tree gives (CI runs it
 * through `npm run lint`).
 */

/** The folders the manual owns: every file in them is a page, and a page no command gives is removed. */
export const MANUAL_FOLDERS = ['docs/commands', 'man'];

const USAGE = 'usage: npm run manual [-- --check]';

type PackageJson = { man?: string[]; [key: string]: unknown };

/** The pages under `root` now, as paths relative to it. */
function checkedIn(root: string): string[] {
  return MANUAL_FOLDERS.flatMap((folder) =>
    existsSync(join(root, folder)) ? readdirSync(join(root, folder)).map((f) => `${folder}/${f}`) : [],
  ).sort();
}

function readPackage(root: string): PackageJson {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
}

function sameList(a: string[] | undefined, b: string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The files under `root` that are not as `files` (the manual) gives them: pages missing or
 * different, pages of no command, and package.json when its `man` list differs. Sorted.
 */
export function outOfDate(root: string, files: Map<string, string>): string[] {
  const differ = [...files].filter(([path, text]) => {
    const file = join(root, path);
    return !existsSync(file) || readFileSync(file, 'utf8') !== text;
  });
  const extra = checkedIn(root).filter((path) => !files.has(path));
  const pkg = sameList(readPackage(root).man, manPaths(files)) ? [] : ['package.json'];
  return [...differ.map(([path]) => path), ...extra, ...pkg].sort();
}

/** Brings the files under `root` to what `files` gives (only those that differ are written); returns them. */
export function writeManual(root: string, files: Map<string, string>): string[] {
  const changed = outOfDate(root, files);
  for (const path of changed) {
    if (path === 'package.json') {
      const pkg = readPackage(root);
      pkg.man = manPaths(files);
      writeFileSync(join(root, path), `${JSON.stringify(pkg, null, 2)}\n`);
    } else if (files.has(path)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), files.get(path)!);
    } else rmSync(join(root, path));
  }
  return changed;
}

export interface Streams {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs `npm run manual` with its arguments on the repository at `root`; returns the exit code. */
export async function runManual(args: string[], root: string, streams: Streams): Promise<number> {
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    streams.err(`Unknown argument ${unknown[0]}: the only option is --check.\n${USAGE}`);
    return 2;
  }
  const files = await manualFiles();
  if (args.includes('--check')) {
    const stale = outOfDate(root, files);
    if (stale.length === 0) {
      streams.out(`The manual is up to date (${files.size} pages).`);
      return 0;
    }
    streams.err(
      `The manual is not what the command tree gives; these files differ:\n${stale.map((f) => `  ${f}`).join('\n')}\nRun \`npm run manual\` to regenerate them, and commit them with the change.`,
    );
    return 1;
  }
  const changed = writeManual(root, files);
  streams.out(
    changed.length === 0
      ? `The manual is up to date (${files.size} pages).`
      : `Wrote ${changed.length} file(s) of the manual:\n${changed.map((f) => `  ${f}`).join('\n')}`,
  );
  return 0;
}
