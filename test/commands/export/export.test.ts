import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox, tempDir, tokenFor, useSandbox } from '../../helpers.js';
import { builtRecipe } from '../../fixtures/recipes.js';
import { useFiles } from '../../fixtures/files.js';
import { forward, listen, passOrFail, reply, type Proxy } from '../../fixtures/proxy.js';

const writeFile = useFiles('edp-fleet-');

/**
 * A pass-through proxy that drops `template_id` from recipe answers: the contract's recipe
 * fields do not include it, so export and plan must find a recipe's template without it.
 */
function withoutTemplateIds(target: string): Promise<Proxy> {
  return listen(
    (req, res, body) =>
      void passOrFail(res, async () => {
        const answer = await forward(target, req, body);
        if (!req.url!.startsWith('/api/v3.1/automated-recipes/')) return reply(res, answer);
        const text = answer.body.toString('utf8').replace(/"template_id":\s*\d+,?/g, '');
        reply(res, { ...answer, body: Buffer.from(text) });
      }),
  );
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  await builtRecipe(sb, await tokenFor(sb, 101), 101, 4001, { google_ads: 'all' });
  await builtRecipe(sb, await tokenFor(sb, 102), 102, 4002, { google_ads: 'all', facebook_ads: 'all' });
});
afterAll(() => sb.close());

describe('edp export', () => {
  it('names templates by title and accounts by remote id; entries of one workspace list it; JSON with --json', async () => {
    const r = await cli(sb, ['export', '-w', '101,102', '--json']);
    expect(r.code).toBe(0);
    const doc = r.json();
    expect(doc.workspaces).toEqual([101, 102]);
    expect(doc.recipes.map((e: any) => [e.template, e.workspaces])).toEqual([
      ['Paid Media Performance', [101]],
      ['Cross-Channel Spend', [102]],
    ]);
    expect(doc.recipes[0].sources[0].accounts.every((a: string) => a.startsWith('remote:'))).toBe(true);
    expect(doc.roles.map((x: any) => x.title)).toEqual(['Media Buyer']);
    expect(r.stderr).toContain('read workspace 101');
  });

  it("finds each recipe's template without template_id in the answers, and plan on the export reports no change", async () => {
    const proxy = await withoutTemplateIds(sb.url);
    try {
      const out = writeFile('no-template-ids.yaml', '');
      const exported = await cli(proxy, ['export', '--all-workspaces', '--output', out]);
      expect(exported.code, exported.stderr).toBe(0);
      const text = (await import('node:fs')).readFileSync(out, 'utf8');
      expect(text).toContain('template: Paid Media Performance');
      expect(text).toContain('template: Cross-Channel Spend');
      expect(text).toMatch(/^workspaces: all$/m);
      const plan = await cli(proxy, ['plan', '-f', out, '--detailed-exitcode']);
      expect(plan.stdout).toContain('No changes');
      expect(plan.code).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('a workspace that fails ends the run without a retry of the requests it left under way', async () => {
    // The lists of 101 are held until the run is over: it has failed on 999 meanwhile.
    const held = await listen(
      (req, res, body) =>
        void passOrFail(res, async () => {
          if (req.method === 'GET' && /^\/api\/v3(\.1)?\/(automated-recipes|webhook_endpoints)\//.test(req.url!))
            return;
          reply(res, await forward(sb.url, req, body));
        }),
    );
    try {
      let stderr = '';
      const r = await cli(held, ['export', '-w', '101,999'], { onStderr: (all) => (stderr = all) });
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toContain('workspace 999 was not found');
      // What the requests cut short by the end of the run would print, they print at once.
      for (let i = 0; i < 5; i++) await new Promise((done) => setImmediate(done));
      expect(stderr).not.toContain('retrying');
      expect(stderr.trim().split('\n')[0]).toMatch(/^error: 400: workspace 999 was not found/);
    } finally {
      await held.close();
    }
  });

  it('needs -w or --all-workspaces, not both (exit 2, nothing sent)', async () => {
    const r = await cli({ url: 'http://127.0.0.1:9' }, ['export', '-w', '101', '--all-workspaces']);
    expect(r.code).toBe(2);
  });
});

describe('edp export --output', () => {
  const t = useSandbox();
  it('does not replace a file edited by hand (its comments) without --force; replaces it whole with it', async () => {
    const dir = tempDir('edp-export-out-');
    try {
      const file = join(dir.dir, 'fleet.yaml');
      writeFileSync(file, '# reviewed by ops\nworkspaces: [101]\n');
      const refused = await cli(t.sb, ['export', '-w', '101', '--output', file]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${file} holds comments, which the export cannot keep: pass --force`);
      expect(readFileSync(file, 'utf8')).toBe('# reviewed by ops\nworkspaces: [101]\n');
      const forced = await cli(t.sb, ['export', '-w', '101', '--output', file, '--force']);
      expect(forced.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toMatch(
        /^# edp export, sha256:[0-9a-f]{16}: .*\n# yaml-language-server: \$schema=\S+\nworkspaces:/,
      );
      expect(readdirSync(dir.dir)).toEqual(['fleet.yaml']);
      // A file the export wrote, unchanged since, is simply written again.
      expect((await cli(t.sb, ['export', '-w', '101', '--output', file])).code).toBe(0);
    } finally {
      dir.remove();
    }
  });

  it('does not replace a file edited since it wrote it, comments or none, nor one it did not write, without --force', async () => {
    const dir = tempDir('edp-export-edited-');
    try {
      const file = join(dir.dir, 'fleet.yaml');
      expect((await cli(t.sb, ['export', '-w', '101', '--output', file])).code).toBe(0);
      const edited = readFileSync(file, 'utf8').replace('Media Buyer', 'Media Buyers');
      expect(edited).not.toBe(readFileSync(file, 'utf8'));
      writeFileSync(file, edited);
      // Refused before anything is sent: the service address leads nowhere.
      const nowhere = { url: 'http://127.0.0.1:9' };
      const refused = await cli(nowhere, ['export', '-w', '101', '--output', file]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `${file} was edited since \`edp export\` wrote it, and the export would lose the edits: pass --force to replace it, or --output another file`,
      );
      expect(readFileSync(file, 'utf8')).toBe(edited);

      const handMade = join(dir.dir, 'hand.yaml');
      writeFileSync(handMade, 'workspaces: [101]\n');
      const notOurs = await cli(nowhere, ['export', '-w', '101', '--output', handMade]);
      expect(notOurs.code).toBe(2);
      expect(notOurs.stderr).toContain(`${handMade} was not written by \`edp export\``);
      expect(readFileSync(handMade, 'utf8')).toBe('workspaces: [101]\n');

      const json = join(dir.dir, 'fleet.json');
      writeFileSync(json, '{"workspaces": [101]}\n');
      const jsonRefused = await cli(nowhere, ['export', '-w', '101', '--json', '--output', json]);
      expect(jsonRefused.code).toBe(2);
      expect(jsonRefused.stderr).toContain('--force');

      const forced = await cli(t.sb, ['export', '-w', '101', '--output', file, '--force']);
      expect(forced.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toContain('- title: Media Buyer\n');
      // What the export wrote plans no change, header and all.
      const plan = await cli(t.sb, ['plan', '-f', file, '--detailed-exitcode']);
      expect(plan.code, plan.stdout).toBe(0);
    } finally {
      dir.remove();
    }
  });
});
