import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedFiles, requireBuild, ROOT, type Packed } from './helpers.js';

/**
 * packedFiles, kept for the build it was listed from: `npm pack --dry-run` takes 2 to 4 s, and
 * several files of a run (and each Node of CI's) ask for the same list. What npm packs depends on
 * package.json, the files under bin/ and dist/, and the licence and README npm always adds;
 * requireBuild has checked that nothing of bin/ is newer than the build, and a build rewrites
 * dist/help.txt, so their times and sizes name the list. Kept
 * beside the build's other notes in node_modules/.cache/edp, written whole (a temporary file
 * renamed), so files running at once read either no list or a whole one.
 */
export function packedFilesOfBuild(): Packed {
  requireBuild();
  const key = ['dist/help.txt', 'package.json', 'LICENSE', 'README.md'].map((f) => {
    if (!existsSync(join(ROOT, f))) return `${f}:missing`;
    const s = statSync(join(ROOT, f));
    return `${f}:${s.mtimeMs}:${s.size}`;
  });
  const dir = join(ROOT, 'node_modules/.cache/edp');
  const file = join(dir, 'packed-files.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { key: string[]; packed: Packed };
    if (JSON.stringify(kept.key) === JSON.stringify(key)) return kept.packed;
  }
  const packed = packedFiles();
  mkdirSync(dir, { recursive: true });
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, JSON.stringify({ key, packed }));
  renameSync(temporary, file);
  return packed;
}
