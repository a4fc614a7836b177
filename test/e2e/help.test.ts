import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { runBuiltInProcess } from './built-in-process.js';
import { requireBuild, ROOT } from './helpers.js';
import { atTerminal, terminalUnavailable } from './terminal.js';

// The built tool's help as a person reads it: at a pseudo-terminal of a given width (a process),
// and piped (the bundle run in this process: what it prints is the subject). Help touches no
// config folder, so the tests, and the runs within each, run concurrently.

const unavailable = terminalUnavailable();
const config = tempDir('edp-e2e-help-');
beforeAll(() => requireBuild());
afterAll(() => config.remove());

const env = { EDP_CONFIG_DIR: config.dir };
const edp = (argv: string[], columns: number) => atTerminal(argv, { env, columns });

/** Lines wider than `width`, but for those that are one word wider than what is left of the line. */
const tooWide = (lines: string[], width: number) =>
  lines.filter(
    (l) =>
      l.length > width &&
      /\s/.test(
        l
          .trim()
          .replace(/ \\$/, '')
          .replace(/"[^"]*"/g, 'x'),
      ),
  );

describe.concurrent('edp, built: help', () => {
  it('an unknown help topic is a usage error (exit 2), in a group as at the top', async ({ expect }) => {
    const topics = [
      ['recipes', 'help', 'nope'],
      ['help', 'recipes', 'nope'],
      ['help', 'nope'],
    ];
    const runs = await Promise.all(topics.map((argv) => runBuiltInProcess(argv, { env })));
    for (const [i, r] of runs.entries()) {
      expect(r.code, topics[i]!.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: unknown command '(recipes )?nope'/);
    }
  });

  describe.skipIf(unavailable).concurrent(`at a terminal${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    it('recipes --help at 80 columns: the verbs, then the global options, each line within the width, as piped', async ({
      expect,
    }) => {
      const [r, piped] = await Promise.all([
        edp(['recipes', '--help'], 80),
        runBuiltInProcess(['recipes', '--help'], { env }),
      ]);
      expect(r.code, r.text).toBe(0);
      expect(r.lines.filter((l) => l.length > 80)).toEqual([]);
      const commands = r.lines.indexOf('Commands:');
      expect(commands).toBeGreaterThan(0);
      expect(r.lines.indexOf('Global Options:')).toBeGreaterThan(commands);
      expect(r.lines.slice(commands, r.lines.indexOf('Global Options:')).join('\n')).toMatch(/^ {2}deploy /m);
      expect(r.text).toBe(piped.stdout);
    });

    it('--help at 80 columns is the text rendered at build time; at 40 and 200 columns it is wrapped at their width', async ({
      expect,
    }) => {
      const rendered = readFileSync(join(ROOT, 'dist/help.txt'), 'utf8');
      const [standard, narrow, wide] = await Promise.all([
        edp(['--help'], 80),
        edp(['--help'], 40),
        edp(['--help'], 200),
      ]);
      expect(standard.text).toBe(rendered);
      expect(narrow.code, narrow.text).toBe(0);
      expect(tooWide(narrow.lines, 40)).toEqual([]);
      expect(narrow.text.split(/\s+/)).toEqual(rendered.split(/\s+/));
      expect(wide.code, wide.text).toBe(0);
      expect(wide.lines.filter((l) => l.length > 200)).toEqual([]);
      // the exit codes are one paragraph, as long as the terminal is wide
      expect(wide.lines.find((l) => l.startsWith('Exit codes:'))!.length).toBeGreaterThan(150);
    });

    it('recipes deploy --help at 40 columns: descriptions under their options, examples continued with \\', async ({
      expect,
    }) => {
      const r = await edp(['recipes', 'deploy', '--help'], 40);
      expect(r.code, r.text).toBe(0);
      expect(tooWide(r.lines, 40)).toEqual([]);
      expect(r.text).toMatch(/^ {2}--data-source <name>\n {6}data source, e\.g\. google_ads$/m);
      expect(r.text).toMatch(/^ {2}edp recipes deploy -w 101 \\$/m);
    });
  });
});
