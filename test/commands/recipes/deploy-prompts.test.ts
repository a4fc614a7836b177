import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, USERNAME, answerPrompts, cli, tempDir, useSandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';
import { FAST } from '../../fixtures/files.js';

const t = useSandbox({ buildSeconds: 0 }, [], { each: true });
const config = tempDir('edp-prompts-');
afterAll(() => config.remove());

const atTerminal = (argv: string[], answers: Array<[string, string]>) =>
  answerPrompts(argv, answers, {
    EDP_CONFIG_DIR: config.dir,
    EDP_BASE_URL: t.sb.url,
    EDP_USERNAME: USERNAME,
    EDP_PASSWORD: PASSWORD,
  });

it('asks for the missing data source and accounts on a terminal, with search', async () => {
  const r = await atTerminal(
    ['recipes', 'deploy', '-w', '101', '--template', '4002', '--poll-interval', '10ms'],
    [
      ['Recipe title', '\r'],
      ['Sync data from', '\r'],
      ['Data source', '\r'],
      ['accounts (type to search; 0 picked)', 'Perf'],
      ['Perf', '\u001b[B'],
      ['Performance', '\r'],
      ['1 picked', '\r'],
      ['Add another data source?', '\r'],
      ['Deploy now?', '\r'],
    ],
  );
  expect(r.unanswered, r.err).toBe(0);
  expect(r.code).toBe(0);
  const recipe = t.sb.store.state.recipes.find((x) => x.workspace_id === 101)!;
  const account = t.sb.store.state.accounts.find((a) => a.id === recipe.connections[0]!.account_ids[0])!;
  expect(recipe.data_sources).toEqual(['google_ads']);
  expect(recipe.connections[0]!.account_ids).toHaveLength(1);
  expect(account.title).toContain('Performance');
  expect(recipe.state).toBe('ready_to_work');
});

/** The words a POSIX shell reads from `text` (proves the printed command's quoting). */
const shellWords = (text: string): string[] =>
  execFileSync('sh', ['-c', `printf '%s\\0' ${text}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);

describe('an interactive deploy asks for every input, shows a summary, asks, and prints the command', () => {
  beforeEach(() => resetRecipes(t.sb));

  it('template, title, sync date and two data sources; the printed command deploys the same without prompts', async () => {
    const r = await atTerminal(
      ['recipes', 'deploy', '-w', '101', ...FAST],
      [
        ['Template (type to search)', 'Paid Media'],
        ['Paid Media Performance  (4001', '\r'],
        ['Recipe title', "Acme's paid media\r"],
        ['Sync data from', '2024-13-01\r'],
        ['YYYY-MM-DD, or empty', '\u0015'.repeat(1)],
        ['Sync data from', '2024-01-01\r'],
        ['Data source', '\r'],
        ['google_ads accounts (type to search; 0 picked)', '\r'],
        ['Add another data source?', 'y\r'],
        ['Next data source', '\r'],
        ['facebook_ads accounts (type to search; 0 picked)', '\r'],
        ['Add another data source?', '\r'],
        ['Deploy now?', '\r'],
      ],
    );
    expect(r.unanswered, r.err).toBe(0);
    expect(r.code, r.err).toBe(0);
    const recipe = t.sb.store.state.recipes.find((x) => x.workspace_id === 101)!;
    expect(recipe.title).toBe("Acme's paid media");
    expect(recipe.sync_from_date).toBe('2024-01-01');
    expect(recipe.data_sources).toEqual(['google_ads', 'facebook_ads']);
    // the summary comes before the question, the command after it
    const summary = r.err.lastIndexOf('Deployment:');
    expect(summary).toBeGreaterThan(0);
    expect(r.err.slice(summary)).toMatch(/template {5}4001 "Paid Media Performance"/);
    expect(r.err.slice(summary)).toMatch(/google_ads {2}connection \d+; all active accounts/);
    expect(summary).toBeLessThan(r.err.lastIndexOf('Deploy now?'));
    const at = r.err.indexOf('The same without prompts:\n');
    expect(at).toBeGreaterThan(r.err.lastIndexOf('Deploy now?'));
    const command = r.err.slice(at).split('\n').slice(1).join('\n');
    const m = /^edp recipes deploy -w 101 --file - --poll-interval 10ms <<'SPEC'\n([\s\S]*?)\nSPEC/.exec(command);
    expect(m, command).not.toBeNull();
    expect(JSON.parse(m![1]!)).toMatchObject({
      template: '4001',
      title: "Acme's paid media",
      sync_from_date: '2024-01-01',
      sources: [
        { data_source: 'google_ads', accounts: ['all-active'] },
        { data_source: 'facebook_ads', accounts: ['all-active'] },
      ],
    });
    const again = await cli(t.sb, ['recipes', 'deploy', '-w', '101', '--file', '-', ...FAST], { stdin: m![1]! });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('adopted recipe');
    expect(again.stderr).toContain('configuration already complete');
  });

  it('one data source: the command is flags, quoted for the shell, and runs to the same recipe', async () => {
    const r = await atTerminal(
      ['recipes', 'deploy', '-w', '101', '--template', '4002', ...FAST],
      [
        ['Recipe title', "Spend 'EU' & more\r"],
        ['Sync data from', '\r'],
        ['Data source', '\r'],
        ['accounts (type to search; 0 picked)', '\r'],
        ['Add another data source?', '\r'],
        ['Deploy now?', '\r'],
      ],
    );
    expect(r.code, r.err).toBe(0);
    const line = r.err.split('The same without prompts:\n')[1]!.split('\n')[0]!;
    const words = shellWords(line.replace(/^edp /, ''));
    expect(words).toEqual([
      'recipes',
      'deploy',
      '-w',
      '101',
      '--template',
      '4002',
      '--title',
      "Spend 'EU' & more",
      '--data-source',
      'google_ads',
      '--connection',
      expect.stringMatching(/^\d+$/),
      '--accounts',
      'all-active',
      '--poll-interval',
      '10ms',
    ]);
    const again = await cli(t.sb, words);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('configuration already complete');
    expect(t.sb.store.state.recipes.filter((x) => x.workspace_id === 101)).toHaveLength(1);
  });

  it('declining writes nothing (exit 11) and still prints the command', async () => {
    const r = await atTerminal(
      ['recipes', 'deploy', '-w', '101', '--template', '4002', '--data-source', 'google_ads', ...FAST],
      [
        ['Recipe title', '\r'],
        ['Sync data from', '\r'],
        ['accounts (type to search; 0 picked)', '\r'],
        ['Deploy now?', 'n\r'],
      ],
    );
    expect(r.unanswered, r.err).toBe(0);
    expect(r.code).toBe(11);
    expect(r.err).toContain('Nothing was written');
    expect(r.err).toContain('edp recipes deploy -w 101 --template 4002 --title');
    expect(t.sb.store.state.recipes).toHaveLength(0);
  });

  it("with a spec file only the workspaces are asked; the file's defaults are not asked again", async () => {
    const spec = join(config.dir, 'spec.yaml');
    writeFileSync(spec, 'template: 4002\nsources:\n  - data_source: google_ads\n    accounts: [all-active]\n');
    const r = await atTerminal(
      ['recipes', 'deploy', '--file', spec, ...FAST],
      [
        ['Deploy to which workspaces?', ' '],
        ['101', '\r'],
        ['Deploy now?', '\r'],
      ],
    );
    expect(r.unanswered, r.err).toBe(0);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toContain('Recipe title');
    expect(r.err).not.toContain('Sync data from');
    expect(r.err).toContain('edp recipes deploy -w 101 --template 4002 --data-source google_ads --accounts all-active');
  });

  it('off a terminal the missing inputs are a usage error naming the flags (exit 2), nothing asked', async () => {
    const r = await cli(t.sb, ['recipes', 'deploy', '-w', '101']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--template');
    expect(r.stderr).not.toContain('Deploy now?');
  });
});
