import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, ROOT } from './helpers.js';

// What `npm pack` puts in the package, as npm itself lists it (the files the tarball holds).

interface Packed {
  files: Array<{ path: string; size: number }>;
  unpackedSize: number;
}

let packed: Packed;
beforeAll(() => {
  requireBuild();
  // --ignore-scripts: the build above is the one packed (prepack would build again); the file
  // list does not depend on the manifest's scripts, which prepack strips.
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  [packed] = JSON.parse(r.stdout) as Packed[];
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
