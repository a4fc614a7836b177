// @ts-check
// The package's manifest as it is packed: without `scripts`. They serve the checkout (the build,
// the tests) and the install from a git URL (`prepare` builds it there); in the packed package,
// which is the bundle alone, they would only make npm 11 list `prepare` as an install script to
// review on every install from the tarball. npm runs `prepack` (`strip`) before it reads the
// files it packs, and `postpack` (`restore`) with the scripts it read before; the manifest comes
// back byte for byte, with its time, so the build is not made stale by a pack.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';

const MANIFEST = 'package.json';
/** The manifest as it was, while a pack is under way (outside the packed files). */
const KEPT = 'node_modules/.cache/edp/package.json.packing';

/** Puts the kept manifest back, with its times; nothing when no pack is under way. */
function restore() {
  if (!existsSync(KEPT)) return;
  const { atime, mtime } = statSync(KEPT);
  copyFileSync(KEPT, MANIFEST);
  utimesSync(MANIFEST, atime, mtime);
  unlinkSync(KEPT);
}

/** Keeps the manifest, then writes it without `scripts`. */
function strip() {
  // A pack that stopped before its postpack left the stripped manifest: the kept one is the real one.
  restore();
  mkdirSync(dirname(KEPT), { recursive: true });
  copyFileSync(MANIFEST, KEPT);
  const { atime, mtime } = statSync(MANIFEST);
  utimesSync(KEPT, atime, mtime);
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  delete manifest.scripts;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  utimesSync(MANIFEST, atime, mtime);
}

const verb = process.argv[2];
if (verb === 'strip') strip();
else if (verb === 'restore') restore();
else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
