import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUAL_RELEASE, manPaths, manualFiles } from '../../scripts/manual/pages.js';
import { outOfDate, runManual, writeManual } from '../../scripts/manual/run.js';

/**
 * The manual under docs/commands/ and man/ is generated from the command tree by
 * scripts/manual/: `npm run manual` writes it and package.json's `man` list, and
 * `npm run manual -- --check` (in `npm run lint`) fails when the checked-in files differ. These
 * tests judge the pages themselves, and the script's check and writing on a copy in a temporary
 * folder: no test writes the repository's files.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

let files: Map<string, string>;

beforeAll(async () => {
  files = await manualFiles();
});

function packageJson(): { man?: string[]; files?: string[]; [key: string]: unknown } {
  return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man?: string[]; files?: string[] };
}

describe('npm run manual', () => {
  // A repository of the manual alone: package.json and the generated pages, written by the script.
  const root = mkdtempSync(join(tmpdir(), 'edp-manual-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the pages and package.json’s man list, then finds nothing to change', () => {
    writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'edp', man: [] }, null, 2)}\n`);
    const written = writeManual(root, files);
    expect(written).toContain('package.json');
    expect(written).toContain('man/edp-recipes-deploy.1');
    expect(readFileSync(join(root, 'docs/commands/edp.md'), 'utf8')).toBe(files.get('docs/commands/edp.md'));
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).toEqual({ name: 'edp', man: manPaths(files) });
    expect(outOfDate(root, files)).toEqual([]);
    expect(writeManual(root, files)).toEqual([]);
  });

  it('--check names each page that differs, is missing or belongs to no command, and exits 1', async () => {
    // A repository of its own, written here: the tests of this file run in any order.
    const copy = mkdtempSync(join(tmpdir(), 'edp-manual-'));
    try {
      writeFileSync(join(copy, 'package.json'), `${JSON.stringify({ name: 'edp', man: [] }, null, 2)}\n`);
      writeManual(copy, files);
      writeFileSync(join(copy, 'docs/commands/edp-recipes.md'), 'edited by hand\n');
      rmSync(join(copy, 'man/edp-sandbox.1'));
      writeFileSync(join(copy, 'man/edp-gone.1'), '.TH "EDP-GONE" "1"\n');
      const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { man: string[] };
      writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...pkg, man: pkg.man.slice(1) }));
      const lines: string[] = [];
      const code = await runManual(['--check'], copy, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      expect(code).toBe(1);
      const named = ['docs/commands/edp-recipes.md', 'man/edp-gone.1', 'man/edp-sandbox.1', 'package.json'];
      expect(outOfDate(copy, files)).toEqual(named);
      for (const f of named) expect(lines.join('\n')).toContain(`  ${f}\n`);
      expect(lines.join('\n')).toContain('Run `npm run manual`');
      // --check wrote nothing.
      expect(readFileSync(join(copy, 'docs/commands/edp-recipes.md'), 'utf8')).toBe('edited by hand\n');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('refuses an unknown argument, naming it, with exit 2', async () => {
    const lines: string[] = [];
    const code = await runManual(['--write'], root, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(/Unknown argument --write: the only option is --check/);
  });
});

describe('the manual', () => {
  it('has a page per command, in Markdown and roff, and none for hidden commands', () => {
    for (const page of ['edp', 'edp-recipes', 'edp-recipes-deploy', 'edp-config-set', 'edp-sandbox']) {
      expect(files.has(`docs/commands/${page}.md`), page).toBe(true);
      expect(files.has(`man/${page}.1`), page).toBe(true);
    }
    expect([...files.keys()].filter((f) => /complete|-help\b/.test(f))).toEqual([]);
  });

  it('is published with the package (package.json’s files)', () => {
    const pkg = packageJson();
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dist', 'man']));
  });

  it('takes the examples from the command tree, at 80 columns', () => {
    const page = files.get('docs/commands/edp-recipes-deploy.md')!;
    expect(page).toContain('edp recipes deploy --all-workspaces --file deploy.yaml --dry-run');
    expect(page).toContain('Re-running is safe');
    const examples = /## Examples\n\n```sh\n([\s\S]*?)```/.exec(page)![1]!;
    for (const line of examples.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(files.get('man/edp-recipes-deploy.1')).toContain('.SH EXAMPLES');
  });

  it('writes web and e-mail addresses as autolinks, and leaves an address pattern as text', () => {
    expect(files.get('docs/commands/edp-config.md')).toContain('default <http://127.0.0.1:4010> (');
    expect(files.get('docs/commands/edp-sandbox.md')).toContain('(default <agency@sandbox.local>)');
    expect(files.get('docs/commands/edp.md')).toContain('as http://\\[USER:PASSWORD@\\]HOST:PORT (');
  });

  it('describes every exit code once, on the program’s pages', () => {
    expect(files.get('docs/commands/edp.md')).toContain('## Exit codes');
    expect(files.get('man/edp.1')).toContain('.SH EXIT STATUS');
    expect(files.get('docs/commands/edp-recipes-deploy.md')).toContain('(edp.md#exit-codes)');
  });

  const groff = spawnSync('groff', ['--version']).status === 0;
  it.runIf(groff)('renders each man page without a groff warning', () => {
    // One groff run for all pages (a run each is most of this file's time); a warning names its page.
    const dir = mkdtempSync(join(tmpdir(), 'edp-man-'));
    try {
      const pages: string[] = [];
      for (const [path, text] of files) {
        if (!path.startsWith('man/')) continue;
        pages.push(join(dir, basename(path)));
        writeFileSync(pages.at(-1)!, text);
      }
      expect(pages.length).toBeGreaterThan(50);
      const result = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', ...pages], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("dates the man pages with package.json's version and the day it was set", () => {
    const pkg = packageJson();
    expect(MANUAL_RELEASE.version, 'a new version: set its date in MANUAL_RELEASE (scripts/manual/pages.ts)').toBe(
      pkg.version,
    );
    expect(MANUAL_RELEASE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [path, text] of files)
      if (path.startsWith('man/'))
        expect(text.split('\n')[0], path).toMatch(
          new RegExp(
            `^\\.TH "[^"]+" "1" "${MANUAL_RELEASE.date}" "edp ${MANUAL_RELEASE.version.replace(/\./g, '\\.')}" `,
          ),
        );
  });

  // mandoc has no --version: installed is when it runs (on empty input, it lints nothing).
  const mandoc = spawnSync('mandoc', ['-T', 'lint'], { input: '' }).error === undefined;
  it.skipIf(!mandoc)(
    mandoc
      ? "passes mandoc's linter without a warning"
      : "passes mandoc's linter: skipped, mandoc is not installed (.ci/run installs Debian's mandoc where apt is available)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'edp-mandoc-'));
      try {
        const pages: string[] = [];
        for (const [path, text] of files) {
          if (!path.startsWith('man/')) continue;
          pages.push(join(dir, basename(path)));
          writeFileSync(pages.at(-1)!, text);
        }
        expect(pages.length).toBeGreaterThan(50);
        const result = spawnSync('mandoc', ['-T', 'lint', '-W', 'warning', ...pages], { encoding: 'utf8' });
        expect(result.stdout + result.stderr).toBe('');
        expect(result.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.runIf(groff)('shows an option as it is typed in the man page', () => {
    const text = execFileSync('groff', ['-man', '-Tascii', '-P-cbou'], {
      input: files.get('man/edp-recipes-deploy.1'),
      encoding: 'utf8',
    });
    expect(text).toContain('--template <id|title>');
    expect(text).toContain('edp recipes deploy --all-workspaces --file deploy.yaml --dry-run');
  });
});
