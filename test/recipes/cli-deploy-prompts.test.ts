import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { PASSWORD, USERNAME, answerPrompts, sandbox, tempDir } from '../helpers.js';

let sb: Sandbox;
const config = tempDir('edp-prompts-');
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(async () => {
  await sb.close();
  config.remove();
});

const atTerminal = (argv: string[], answers: Array<[string, string]>) =>
  answerPrompts(argv, answers, { EDP_CONFIG_DIR: config.dir, EDP_BASE_URL: sb.url, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD });

it('asks for the missing data source and accounts on a terminal, with search', async () => {
  const r = await atTerminal(
    ['recipes', 'deploy', '-w', '101', '--template', '4002', '--poll-interval', '10ms'],
    [
      ['Data source', '\r'],
      ['accounts (type to search; 0 picked)', 'Perf'],
      ['Perf', '\u001b[B'],
      ['Performance', '\r'],
      ['1 picked', '\r'],
    ],
  );
  expect(r.unanswered, r.err).toBe(0);
  expect(r.code).toBe(0);
  const recipe = sb.store.state.recipes.find((x) => x.workspace_id === 101)!;
  const account = sb.store.state.accounts.find((a) => a.id === recipe.connections[0]!.account_ids[0])!;
  expect(recipe.data_sources).toEqual(['google_ads']);
  expect(recipe.connections[0]!.account_ids).toHaveLength(1);
  expect(account.title).toContain('Performance');
  expect(recipe.state).toBe('ready_to_work');
});
