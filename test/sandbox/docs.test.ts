import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/sandbox.md documents every control the sandbox registers, with its method and path, so that
// a control added without its documentation fails here.

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/sandbox.md and the sandbox', () => {
  it('lists every /_sandbox/ control the sandbox registers', () => {
    const registered = new Set<string>();
    for (const file of sources('src/sandbox')) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /app\.(get|post|put|patch|delete)\b[^(]*\(\s*'(\/_sandbox\/[^']*)'/g,
      ))
        registered.add(`${m[1]!.toUpperCase()} ${m[2]!.replace(/:(id|name)\b/g, (_s, p: string) => p.toUpperCase())}`);
    }
    expect(registered.size).toBeGreaterThan(20);
    const readme = readFileSync('docs/sandbox.md', 'utf8');
    const documented = new Set(
      [...readme.matchAll(/\| `(GET|POST|PUT|PATCH|DELETE) (\/_sandbox\/[^`]*)`/g)].map((m) => `${m[1]} ${m[2]}`),
    );
    expect([...registered].filter((r) => !documented.has(r)).sort()).toEqual([]);
    expect([...documented].filter((d) => !registered.has(d)).sort()).toEqual([]);
  });
});
