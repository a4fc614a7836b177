import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The `.ts` files under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the domain (src/fleet, src/recipes)', () => {
  it('returns data and errors: what a person reads is made by the commands and src/output, which it never imports', () => {
    const offending = ['src/fleet', 'src/recipes']
      .flatMap(sources)
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/from '((?:\.\.\/)+(?:output|commands)\/[^']*)'/g)].map(
          (m) => `${file} imports ${m[1]}`,
        ),
      );
    expect(offending).toEqual([]);
  });
});
