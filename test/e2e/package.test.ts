import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, ROOT, type Packed } from './helpers.js';
import { packedFilesOfBuild } from './packed-cache.js';

// What `npm pack` puts in the package, as npm itself lists it (the files the tarball holds).

let packed: Packed;
beforeAll(() => {
  requireBuild();
  packed = packedFilesOfBuild();
});

describe('the packed package', () => {
  it('ships the licence package.json names, with its text', () => {
    const { license } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string };
    expect(license).toBe('MIT');
    expect(packed.files.map((f) => f.path)).toContain('LICENSE');
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the edp authors\n/);
    expect(text).toContain('Permission is hereby granted, free of charge');
  });
});

describe('the source maps', () => {
  it('are built for the checkout and left out of the package', () => {
    // test/e2e/module-load.test.ts reads dist/cli.cjs.map; users run without (docs/development.md).
    expect(existsSync(join(ROOT, 'dist/cli.cjs.map'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist/sandbox.cjs.map'))).toBe(true);
    expect(packed.files.map((f) => f.path).filter((f) => f.endsWith('.map'))).toEqual([]);
  });
});

describe('the third-party notices', () => {
  const NOTICES = 'dist/THIRD-PARTY-NOTICES.txt';

  /** esbuild's metafiles of the build, as build.mjs kept them, and the packages it copied whole. */
  function bundleInputs(): { metafiles: Metafile[]; copied: string[] } {
    const file = join(ROOT, 'node_modules/.cache/edp/bundle-inputs.json');
    expect(existsSync(file), `${file} is missing: build.mjs writes it`).toBe(true);
    return JSON.parse(readFileSync(file, 'utf8')) as { metafiles: Metafile[]; copied: string[] };
  }

  it('are shipped', () => {
    expect(packed.files.map((f) => f.path)).toContain(NOTICES);
  });

  it('account for every file of dist/ the builds wrote or copied', () => {
    const { metafiles, copied } = bundleInputs();
    const built = new Set(metafiles.flatMap((m) => Object.keys(m.outputs)).filter((f) => !f.endsWith('.map')));
    const code = packed.files
      .map((f) => f.path)
      .filter((f) => f.startsWith('dist/') && /\.(c?js|wasm)$/.test(f) && f !== 'dist/sandbox.js');
    const copiedDirs = copied.map((dir) => `dist/vendor/${dir.split('node_modules/').pop()!}/`);
    const unaccounted = code.filter((f) => !built.has(f) && !copiedDirs.some((dir) => f.startsWith(dir)));
    expect(unaccounted).toEqual([]);
    // Every folder of dist/vendor is a package copied whole.
    const folders = readdirSync(join(ROOT, 'dist/vendor'), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(folders.map((d) => `dist/vendor/${d.name}/`).sort()).toEqual(copiedDirs.sort());
  });

  it('name every package whose code is in the bundle, with its version, licence and licence text', () => {
    const { metafiles, copied } = bundleInputs();
    const dirs = new Set(copied);
    for (const { outputs } of metafiles)
      for (const output of Object.values(outputs))
        for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
          const at = input.lastIndexOf('node_modules/');
          if (bytesInOutput === 0 || at < 0 || input.includes(':')) continue;
          const [first, second] = input.slice(at + 'node_modules/'.length).split('/');
          dirs.add(input.slice(0, at) + 'node_modules/' + (first!.startsWith('@') ? `${first}/${second}` : first));
        }
    // The bundle's own big libraries are among them: the list is not empty by mistake.
    const names = [...dirs].map(
      (d) => (JSON.parse(readFileSync(join(ROOT, d, 'package.json'), 'utf8')) as { name: string }).name,
    );
    expect(names).toEqual(expect.arrayContaining(['commander', 'fastify', 'undici', 'zod', 'yaml', 'jq-web']));

    const text = readFileSync(join(ROOT, NOTICES), 'utf8');
    const sections = new Map(
      text
        .split(/^-{78}\n/m)
        .slice(1)
        .map((s) => [s.slice(0, s.indexOf('\n')), s] as const),
    );
    const missing: string[] = [];
    for (const dir of dirs) {
      const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        license?: string;
      };
      const section = sections.get(`${pkg.name}@${pkg.version}`);
      if (!section) {
        missing.push(`${pkg.name}@${pkg.version} (${dir})`);
        continue;
      }
      if (typeof pkg.license === 'string') expect(section, dir).toContain(`\nLicense: ${pkg.license}\n`);
      for (const file of readdirSync(join(ROOT, dir)).filter((f) => /^(licen[cs]e|copying)/i.test(f)))
        expect(section, `${dir}/${file}`).toContain(
          readFileSync(join(ROOT, dir, file), 'utf8')
            .replace(/\r\n/g, '\n')
            .trim(),
        );
    }
    expect(missing).toEqual([]);
  });
});
