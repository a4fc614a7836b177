// @ts-check
// The third-party notices shipped in dist/: every package whose code ends in the bundle, read from
// esbuild's own account of each build (its metafile: the inputs of each output file, with the
// bytes each put there), and every package copied into dist/ whole (jq-web). Each with the name,
// version and licence its package.json gives, and the licence text of its own licence files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a bundle's packages are listed for the test that holds the notices to them (not shipped). */
export const BUNDLE_INPUTS = 'node_modules/.cache/edp/bundle-inputs.json';

/** A licence file of a package: LICENSE, LICENCE, COPYING, with any suffix (LICENSE.md, LICENSE-MIT). */
const LICENCE_FILE = /^(licen[cs]e|copying)/i;

/**
 * The package folder an input of the bundle belongs to: the path up to the last `node_modules/`,
 * with the package's name (scoped or not); undefined for the project's own sources.
 * @param {string} input a path as esbuild's metafile gives it (relative to the project's root)
 * @returns {string | undefined}
 */
export function packageDir(input) {
  const path = input.replace(/\\/g, '/');
  const at = path.lastIndexOf('node_modules/');
  if (at < 0 || path.includes(':')) return undefined;
  const rest = path.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]?.startsWith('@') ? rest.slice(0, 2).join('/') : rest[0];
  return `${path.slice(0, at)}node_modules/${name}`;
}

/**
 * The package folders whose code ends in the bundle: the inputs of every output with bytes in it.
 * @param {import('esbuild').Metafile[]} metafiles
 * @returns {string[]}
 */
export function bundledPackageDirs(metafiles) {
  const dirs = new Set();
  for (const { outputs } of metafiles)
    for (const output of Object.values(outputs))
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const dir = bytesInOutput > 0 ? packageDir(input) : undefined;
        if (dir) dirs.add(dir);
      }
  return [...dirs].sort();
}

/**
 * @typedef {{ name: string, version: string, license: string, author?: string, texts: Array<{ file: string, text: string }> }} Notice
 */

/**
 * What a package says of itself: name, version, licence (package.json's `license`, or the
 * older `licenses` list) and the text of each licence file in its folder.
 * @param {string} root the project's root
 * @param {string} dir the package's folder, relative to root
 * @returns {Notice}
 */
export function notice(root, dir) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  /** @type {unknown} */
  const declared = pkg.license ?? pkg.licenses;
  const license =
    typeof declared === 'string'
      ? declared
      : Array.isArray(declared)
        ? declared.map((l) => (typeof l === 'string' ? l : l.type)).join(' OR ')
        : declared && typeof declared === 'object' && 'type' in declared
          ? String(declared.type)
          : 'UNKNOWN';
  const texts = readdirSync(join(root, dir))
    .filter((f) => LICENCE_FILE.test(f))
    .sort()
    .map((file) => ({
      file,
      text: readFileSync(join(root, dir, file), 'utf8')
        .replace(/\r\n/g, '\n')
        .trimEnd(),
    }));
  // A package with no licence file: its README's licence section, where it has one.
  if (texts.length === 0) {
    const readme = readdirSync(join(root, dir)).find((f) => /^readme/i.test(f));
    const section = readme
      ? /^(#+)\s*licen[cs]e\b.*\n([\s\S]*?)(?=^#|(?![\s\S]))/im.exec(readFileSync(join(root, dir, readme), 'utf8'))
      : null;
    if (readme && section?.[2]?.trim())
      texts.push({ file: `${readme} (its licence section)`, text: section[2].trim() });
  }
  const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
  return { name: pkg.name, version: pkg.version, license, ...(author ? { author } : {}), texts };
}

/**
 * The notices file: a header, then one section per package (name@version, licence, texts).
 * @param {Notice[]} notices
 * @returns {string}
 */
export function renderNotices(notices) {
  const sorted = [...notices].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  const rule = '-'.repeat(78);
  const sections = sorted.map((n) =>
    [
      rule,
      `${n.name}@${n.version}`,
      `License: ${n.license}`,
      ...(n.author ? [`Author: ${n.author}`] : []),
      '',
      ...(n.texts.length > 0
        ? n.texts.flatMap((t, i) => [...(i > 0 || !LICENCE_FILE.test(t.file) ? [`(${t.file})`, ''] : []), t.text, ''])
        : [`The package ships no licence text; its package.json names the licence ${n.license}.`, '']),
    ].join('\n'),
  );
  return [
    'Third-party notices for edp',
    '',
    `dist/ bundles or copies the code of the ${sorted.length} packages below. Each is listed with the`,
    'name, version, licence and author its package.json gives and the licence text it ships.',
    '',
    ...sections,
  ].join('\n');
}

/**
 * Every package of the bundle (from its metafiles) and the packages copied whole, as notices.
 * @param {string} root
 * @param {import('esbuild').Metafile[]} metafiles
 * @param {string[]} copied package folders copied into dist/ whole, relative to root
 * @returns {{ dirs: string[], text: string }}
 */
export function thirdPartyNotices(root, metafiles, copied) {
  const dirs = [...new Set([...bundledPackageDirs(metafiles), ...copied])].sort();
  const notices = dirs.map((dir) => notice(root, dir));
  // One section per name and version: a package met at two paths (hoisted and nested) once.
  const unique = [...new Map(notices.map((n) => [`${n.name}@${n.version}`, n])).values()];
  return { dirs, text: renderNotices(unique) };
}
