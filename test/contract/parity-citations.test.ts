import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';

/**
 * A parity check's name ends with what it checks, in parentheses: operation ids
 * (src/contract/operations.ts) and sections of docs/contract-rules.md (a heading, or a rule in
 * bold), separated by semicolons; each cited part starts with one of them (then a rule's
 * number or a word on it may follow). The contract document itself is not in the repository.
 */
const RULES = readFileSync('docs/contract-rules.md', 'utf8');

/** The names a part may start with: headings (also their short and parenthesised forms) and bold rules. */
function citable(): string[] {
  const names = new Set<string>(OPERATIONS.map((o) => o.id));
  for (const [, heading] of RULES.matchAll(/^#{2,3} (.+)$/gm)) {
    names.add(heading!);
    const m = /^(.*?) \((.*)\)$/.exec(heading!);
    if (m) {
      names.add(m[1]!);
      names.add(m[2]!);
    }
  }
  for (const [, bold] of RULES.matchAll(/\*\*([^*]+?)[.:]?\*\*/g)) names.add(bold!.replace(/^The /, ''));
  return [...names];
}

const TITLE = /^\s*(?:(?:test|it|describe|writeCheck|on[A-Z]\w*)(?:\.\w+)?\(\s*)?(['"`])[^'"`]* \(([^()]+)\)\1(?:,|$)/g;

/** The citations at the end of the string literals of the parity checks, with where they are. */
function citations(): Array<{ where: string; part: string }> {
  const dir = 'test/parity';
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .flatMap((f) =>
      readFileSync(`${dir}/${f}`, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          // A check's name: the first argument of a check, or a line of its own (a long name).
          [...line.matchAll(TITLE)].flatMap((m) =>
            m[2]!
              .split('; ')
              // a request's label with the status it expects, not a check's name
              .filter((part) => !/^\d{3}$/.test(part))
              .map((part) => ({ where: `${f}:${i + 1}`, part })),
          ),
        ),
    );
}

describe('parity check names', () => {
  it('cite operation ids and sections of docs/contract-rules.md, never a document outside the repository', () => {
    const names = citable();
    const found = citations();
    expect(found.length).toBeGreaterThan(100);
    const cites = (part: string) =>
      names.some((n) => part === n || (part.startsWith(n) && /^[\s,:]/.test(part.slice(n.length))));
    expect(found.filter((c) => !cites(c.part) || c.part.includes('§')).map((c) => `${c.where}: ${c.part}`)).toEqual([]);
  });
});
