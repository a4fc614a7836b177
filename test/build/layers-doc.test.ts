import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/development.md draws the layers of src/ as a Mermaid flowchart (its "Layers" section). The
 * picture is held to .dependency-cruiser.cjs, the rules the import graph is judged by: every folder
 * and file at the top of src/ is in it, and none of its arrows is an import a rule refuses. Read as
 * text: no dependency-cruiser run (test/tools/imports.test.ts judges the real graph).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

type Condition = { path?: string | string[]; pathNot?: string | string[]; circular?: boolean };
type Rule = { name: string; from: Condition; to: Condition };
const { forbidden } = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Rule[] };

/** The nodes (id: the path it stands for) and arrows of the Mermaid block under "### Layers". */
function picture(markdown: string): { nodes: Map<string, string>; arrows: Array<[string, string]> } {
  const section = markdown.slice(markdown.indexOf('\n### Layers\n'));
  const block = /```mermaid\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/development.md: no mermaid block under "### Layers"');
  const nodes = new Map<string, string>();
  const arrows: Array<[string, string]> = [];
  for (const line of block.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('flowchart')) continue;
    const ends = line.split('-->').map((end) => {
      const m = /^(\w+)(?:\["([^"]+)"\])?$/.exec(end.trim());
      if (!m) throw new Error(`docs/development.md: a line of the layers' picture not understood: ${line}`);
      if (m[2]) nodes.set(m[1]!, m[2]);
      return m[1]!;
    });
    if (ends.length !== 2) throw new Error(`docs/development.md: one arrow a line in the layers' picture: ${line}`);
    arrows.push([ends[0]!, ends[1]!]);
  }
  return { nodes, arrows };
}

/** A file a node stands for: the file itself, or one in the folder. */
const fileOf = (path: string) => (/\.\w+$/.test(path) ? path : `${path}/any.ts`);

function matches(condition: Condition, file: string): boolean {
  const any = (patterns: string | string[] | undefined) =>
    [patterns ?? []].flat().some((p) => new RegExp(p).test(file));
  return (condition.path === undefined || any(condition.path)) && !any(condition.pathNot);
}

describe("docs/development.md's picture of the layers", () => {
  const { nodes, arrows } = picture(readFileSync(join(ROOT, 'docs/development.md'), 'utf8'));

  it('has every folder and file at the top of src/', () => {
    const drawn = new Set(nodes.values());
    const top = readdirSync(join(ROOT, 'src'))
      .filter((name) => name !== 'types') // declarations of untyped modules: imported by none
      .map((name) => `src/${name}`);
    expect(top.filter((path) => !drawn.has(path))).toEqual([]);
    for (const [from, to] of arrows)
      expect([nodes.has(from), nodes.has(to)], `${from} --> ${to}`).toEqual([true, true]);
  });

  it('draws no import that .dependency-cruiser.cjs refuses', () => {
    const refused = arrows.flatMap(([from, to]) => {
      const a = fileOf(nodes.get(from)!);
      const b = fileOf(nodes.get(to)!);
      return forbidden
        .filter((rule) => !rule.to.circular && matches(rule.from, a) && matches(rule.to, b))
        .map((rule) => `${nodes.get(from)} --> ${nodes.get(to)} (${rule.name})`);
    });
    expect(refused).toEqual([]);
  });

  it('is checked: an arrow the rules refuse is found', () => {
    const file = (path: string) => fileOf(path);
    const rule = forbidden.find((r) => r.name === 'domain-makes-no-words')!;
    expect(matches(rule.from, file('src/recipes')) && matches(rule.to, file('src/output'))).toBe(true);
    expect(matches(rule.from, file('src/recipes')) && matches(rule.to, file('src/api'))).toBe(false);
  });
});
