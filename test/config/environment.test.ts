import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/config/environment.js';
import { cli } from '../helpers.js';

/** Every source file of the tool (the sandbox's pages aside: they run in a browser). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('the environment', () => {
  it('every variable the sources read is listed for `edp help environment` and the manual, and every one listed is read', () => {
    const read = new Set<string>();
    for (const file of [...sources('src'), 'bin/edp.js']) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)\b/g)) read.add(m[1]!);
      // Names held in constants and messages: `SECRET_ENV = 'EDP_WEBHOOK_SECRET'`, `settings.env`.
      for (const m of text.matchAll(/['"`](EDP_[A-Z0-9_]+)['"`]/g)) read.add(m[1]!);
    }
    // Node's own variables the launcher hands on, the search path of a spawned shell, and the
    // placeholder of the fleet file's `${env.NAME}` references in messages.
    for (const name of ['PATH', 'LOCALAPPDATA', 'NAME']) read.delete(name);
    const listed = ENVIRONMENT.map((v) => v.name);
    expect([...read].filter((n) => !listed.includes(n)).sort()).toEqual([]);
    expect(listed.filter((n) => !read.has(n) && n !== 'CI').sort()).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('`edp help environment` lists them with what each does and who reads it; `edp --help` points to it', async () => {
    const r = await cli(undefined, ['help', 'environment']);
    expect(r.code).toBe(0);
    for (const v of ENVIRONMENT) expect(r.stdout).toMatch(new RegExp(`^${v.name}\\n {2}\\S`, 'm'));
    const unwrapped = r.stdout.replace(/\n {2}/g, ' ');
    expect(unwrapped).toContain('as --secret. Read by: edp webhooks listen.');
    expect(unwrapped).toContain('Read by the commands that take --poll-interval.');
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const narrow = await cli(undefined, ['help', 'environment'], { tty: true, columns: 50 });
    for (const line of narrow.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
    expect((await cli(undefined, ['--help'])).stdout.replace(/\n/g, ' ')).toContain(
      '`edp help environment` for the environment variables',
    );
    const unknown = await cli(undefined, ['help', 'environmentt']);
    expect(unknown.code).toBe(2);
  });

  it('every man page has an ENVIRONMENT section: its own variables, then those of every command', () => {
    const pages = readdirSync('man');
    expect(pages.length).toBeGreaterThan(100);
    for (const page of pages) expect(readFileSync(join('man', page), 'utf8'), page).toContain('\n.SH ENVIRONMENT\n');
    expect(readFileSync('man/edp-webhooks-listen.1', 'utf8')).toMatch(
      /\.SH ENVIRONMENT\n\.TP\n\\fBEDP_WEBHOOK_SECRET\\fR/,
    );
    expect(readFileSync('man/edp-apply.1', 'utf8')).toMatch(
      /\\fBEDP_POLL_INTERVAL\\fR[\s\S]*\\fBEDP_CONCURRENCY\\fR|\\fBEDP_CONCURRENCY\\fR[\s\S]*\\fBEDP_POLL_INTERVAL\\fR/,
    );
    const root = readFileSync('man/edp.1', 'utf8');
    for (const v of ENVIRONMENT) expect(root).toContain(`\\fB${v.name.replace(/_/g, '_')}\\fR`);
  });
});
