import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { PASSWORD, USERNAME, sandbox, tempDir } from '../helpers.js';

let sb: Sandbox;
const config = tempDir('edp-prompts-');
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(async () => {
  await sb.close();
  config.remove();
});

/** Runs the CLI at a pretend terminal, answering each prompt once its question appears on stderr. */
async function atTerminal(argv: string[], answers: Array<[string, string]>) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const pending = [...answers];
  stdout.on('data', (d) => (out += d));
  // Each question is looked for in what was written after the previous answer.
  let from = 0;
  stderr.on('data', (d) => {
    err += d;
    const next = pending[0];
    const at = next ? err.indexOf(next[0], from) : -1;
    if (next && at >= 0) {
      pending.shift();
      from = err.length;
      setTimeout(() => stdin.write(next[1]), 20);
    }
  });
  const env = { PATH: process.env.PATH, EDP_CONFIG_DIR: config.dir, EDP_BASE_URL: sb.url, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
  const code = await main(argv, { stdin, stdout, stderr, env });
  return { code, out, err, unanswered: pending.length };
}

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
