import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { App } from '../../src/commands/shared/app.js';
import { MANUAL_RELEASE, manPaths, manual } from '../../src/commands/shared/manual.js';

/**
 * The manual under docs/commands/ and man/ is generated from the command tree; the checked-in
 * pages must be what the tree gives. `npm run manual` (this file with EDP_WRITE_MANUAL=1)
 * writes them, and package.json's `man` list.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['docs/commands', 'man'];
const REGENERATE = 'run `npm run manual` to regenerate the manual';

let files: Map<string, string>;

beforeAll(async () => {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  files = manual(await buildProgram(new App(io), [], true));
});

function checkedIn(): string[] {
  return FOLDERS.flatMap((folder) =>
    existsSync(join(ROOT, folder)) ? readdirSync(join(ROOT, folder)).map((f) => `${folder}/${f}`) : [],
  ).sort();
}

function packageJson(): { man?: string[]; files?: string[]; [key: string]: unknown } {
  return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man?: string[]; files?: string[] };
}

describe.runIf(process.env.EDP_WRITE_MANUAL === '1')('npm run manual', () => {
  it('writes the manual and package.json’s man list', () => {
    for (const path of checkedIn()) if (!files.has(path)) rmSync(join(ROOT, path));
    for (const [path, text] of files) {
      mkdirSync(dirname(join(ROOT, path)), { recursive: true });
      writeFileSync(join(ROOT, path), text);
    }
    const pkg = packageJson();
    pkg.man = manPaths(files);
    writeFileSync(join(ROOT, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
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

  it('is checked in as the command tree generates it', () => {
    const expected = [...files.keys()].sort();
    const missing = expected.filter((f) => !existsSync(join(ROOT, f)));
    const stale = checkedIn().filter((f) => !files.has(f));
    expect({ missing, stale }, REGENERATE).toEqual({ missing: [], stale: [] });
    const differ = expected.filter((f) => readFileSync(join(ROOT, f), 'utf8') !== files.get(f));
    expect(differ, REGENERATE).toEqual([]);
  });

  it("is listed in package.json's man, and published", () => {
    const pkg = packageJson();
    expect(pkg.man, REGENERATE).toEqual(manPaths(files));
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
    expect(
      MANUAL_RELEASE.version,
      'a new version: set its date in MANUAL_RELEASE (src/commands/shared/manual.ts)',
    ).toBe(pkg.version);
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
