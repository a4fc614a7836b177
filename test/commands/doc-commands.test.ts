import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from '../helpers.js';

// Every `edp …` command line the README and the guides show is a command line the tool takes:
// its command exists and its flags are the command's (parsed through the seam that stops before
// running). A flag renamed or a verb removed fails here, not in a user's shell.

const DOCS = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The shell words of a command line: quotes removed, `$VAR` and `$(…)` kept as one word. */
function words(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let quote: string | undefined;
  let depth = 0;
  let started = false;
  for (const c of line) {
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '(' && word.endsWith('$')) {
      depth++;
      word += c;
    } else if (c === ')' && depth > 0) {
      depth--;
      word += c;
    } else if (/\s/.test(c) && depth === 0) {
      if (started || word) out.push(word);
      word = '';
      started = false;
    } else word += c;
  }
  if (started || word) out.push(word);
  return out;
}

/** The `edp` invocations of the shell blocks of a Markdown file: [line, argv]. */
function commandLines(file: string): Array<[string, string[]]> {
  const text = readFileSync(file, 'utf8');
  const found: Array<[string, string[]]> = [];
  for (const block of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    // A line ending in `\` goes on on the next one.
    for (const raw of block[1]!.replace(/\\\n\s*/g, ' ').split('\n')) {
      const line = raw
        .replace(/(^|\s)#\s.*$/, '')
        .replace(/\s[12]?>\s*\S+/g, '')
        .trim();
      // A synopsis (`edp plan -f FILE [-w IDS] [--prune]`) is not a command line.
      if (/\[-|\(-/.test(line)) continue;
      // Each command of a pipeline or a list; variable assignments before it are the environment.
      for (const part of line.split(/\s*(?:\|\||&&|;|\||&(?!\d))\s*/)) {
        const argv = words(part);
        while (argv[0] !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(argv[0])) argv.shift();
        if (argv[0] !== 'edp') continue;
        found.push([part, argv.slice(1)]);
      }
    }
  }
  return found;
}

describe('the command lines of the README and the guides', () => {
  it('are command lines the tool takes', async () => {
    const refused: string[] = [];
    let count = 0;
    for (const file of DOCS) {
      for (const [line, argv] of commandLines(file)) {
        // Placeholders a reader fills in (… or <id>) stand for a value of their own.
        const args = argv.filter((a) => a !== '...').map((a) => (a.includes('…') || /^<.*>$/.test(a) ? 'VALUE' : a));
        const r = await parse(args);
        count++;
        if (r.code !== 0) refused.push(`${file}: ${line}\n    ${r.stderr.trim().split('\n')[0]}`);
      }
    }
    expect(count).toBeGreaterThan(50);
    expect(refused).toEqual([]);
  });
});
