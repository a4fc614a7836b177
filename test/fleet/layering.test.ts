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

  it("tells progress as data: the live line's words (util/poll's faultLine, faultText) are the commands' to use", () => {
    const offending = ['src/fleet', 'src/recipes']
      .flatMap(sources)
      .flatMap((file) => liveWords(file, readFileSync(file, 'utf8')));
    expect(offending).toEqual([]);
  });
});

/** The live line's words that a source imports from util/poll. */
function liveWords(file: string, text: string): string[] {
  return [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(?:\.\.\/)+util\/poll\.js'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map(
        (name) =>
          name
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )
      .filter((name) => LIVE_WORDS.includes(name))
      .map((name) => `${file} imports ${name}`),
  );
}

const LIVE_WORDS = ['faultLine', 'faultText'];

describe('the check of live words', () => {
  it('finds them however the import is written', () => {
    const source = [
      "import { agoText, faultLine, pollUntil } from '../util/poll.js';",
      "import {\n  type PollFault,\n  faultText as words,\n} from '../../util/poll.js';",
      "import { faultLine } from './poll.js';",
    ].join('\n');
    expect(liveWords('x.ts', source)).toEqual(['x.ts imports faultLine', 'x.ts imports faultText']);
  });
});
