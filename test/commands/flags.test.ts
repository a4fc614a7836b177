import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../helpers.js';
import { useFiles } from '../fixtures/files.js';

// One flag vocabulary: -f/--file names the input file wherever a command takes one, and the
// start of history is --sync-from-date everywhere; the names of the previous release still work
// for one release, hidden from --help, with a note on stderr.

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);
const file = useFiles('edp-flags-');

describe('flag vocabulary', () => {
  it('-f/--file on every command that reads an input file (api -f stays a field)', async () => {
    for (const argv of [
      ['recipes', 'deploy'],
      ['recipes', 'configure', '1'],
      ['roles', 'create'],
      ['destinations', 'connections', 'create'],
      ['plan'],
      ['apply'],
    ]) {
      const help = await cli(undefined, [...argv, '--help']);
      expect(help.stdout, argv.join(' ')).toMatch(/-f, --file <\w+>/);
    }
    expect((await cli(undefined, ['api', '--help'])).stdout).toMatch(/-f, --field/);
  });

  it('recipes deploy -f takes the spec', async () => {
    const spec = file(
      'deploy.yaml',
      'template: Paid Media Performance\nsync_from_date: 2024-01-01\nsources:\n  - data_source: google_ads\n    accounts: [all-active]\n',
    );
    const r = await t.edp('recipes', 'deploy', '-f', spec, '--dry-run');
    expect(r.code, r.stderr).toBe(0);
  });

  it('--sync-from-date is the one name of the start date; --sync-from and --sync-historical-data still work, with a note, and are hidden', async () => {
    const now = await t.edp(
      'recipes',
      'deploy',
      '--template',
      'Paid Media Performance',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
      '--sync-from-date',
      '2024-01-01',
      '--dry-run',
    );
    expect(now.code, now.stderr).toBe(0);
    expect(now.stderr).not.toContain('deprecated');
    const old = await t.edp(
      'recipes',
      'deploy',
      '--template',
      'Paid Media Performance',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
      '--sync-from',
      '2024-01-01',
      '--dry-run',
    );
    expect(old.code, old.stderr).toBe(0);
    expect(old.stderr).toContain(
      '--sync-from is deprecated and will be removed in the next release; use --sync-from-date',
    );
    // The dry run's requests carry the date either way.
    expect(old.stdout).toContain('2024-01-01');
    expect(now.stdout).toContain('2024-01-01');

    const validate = await t.edp(
      'extract-templates',
      'validate',
      '301',
      '--accounts',
      '20001',
      '--sync-historical-data',
      '2024-01-01',
    );
    expect(validate.stderr).toContain('--sync-historical-data is deprecated');

    for (const argv of [
      ['recipes', 'deploy'],
      ['recipes', 'configure', '1'],
      ['extracts', 'create'],
      ['extract-templates', 'validate', '1'],
    ]) {
      const help = (await cli(undefined, [...argv, '--help'])).stdout;
      expect(help, argv.join(' ')).toContain('--sync-from-date');
      expect(help).not.toMatch(/--sync-from\b(?!-)/);
      expect(help).not.toContain('--sync-historical-data');
    }
  });
});
