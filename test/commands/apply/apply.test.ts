import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { PASSWORD, USERNAME, answerPrompts, cli, sandbox, tempDir } from '../../helpers.js';
import { receiver } from '../../fixtures/webhooks.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { APPLY_ROW_KEYS, endpointsOf, recipesOf, remoteOf } from '../../fixtures/fleet.js';

const writeFile = useFiles('edp-fleet-');

const fleetText = (sb: Sandbox, roleTitle: string) => `
workspaces: all
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}, remote:${remoteOf(sb, 101, 'google_ads', 1)}]
      - data_source: facebook_ads
        accounts: [all-active]
webhooks:
  - url: https://hooks.example.com/edp
    events: [recipe_activated, load_completed]
  - url: https://hooks.example.com/ops
    events: [transformation_completed]
    workspaces: [102]
roles:
  - title: Media Buyer
    description: Runs paid media extractions
    permissions: [EXTRACT:RUN]
  - title: ${roleTitle}
    description: Reads reports
    permissions: [EXTRACT:VIEW, DATA_TABLE:VIEW]
`;

describe('edp apply converges under faults', () => {
  for (const seed of [1, 108, 113, 119, 131]) {
    it(`seed ${seed}: 15% 503s and 5% dropped answers, no duplicate recipe, endpoint or role`, async () => {
      const sb = await sandbox({ buildSeconds: 0, failRate: 0.15, resetRate: 0.05, seed });
      try {
        const f = writeFile(`faults-${seed}.yaml`, fleetText(sb, 'Analyst'));
        let code = -1;
        for (let run = 0; run < 4 && code !== 0; run++)
          code = (await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST])).code;
        expect(code).toBe(0);
        sb.store.opts.failRate = 0;
        sb.store.opts.resetRate = 0;
        for (const ws of [101, 102, 103]) {
          expect(recipesOf(sb, ws).filter((r) => r.template_id === 4001)).toHaveLength(1);
          const urls = endpointsOf(sb, ws)
            .map((e: any) => e.url)
            .sort();
          expect(urls).toEqual(
            ws === 102
              ? ['https://hooks.example.com/edp', 'https://hooks.example.com/ops']
              : ['https://hooks.example.com/edp'],
          );
        }
        const roles = (sb.store.state as any).roles
          .filter((r: any) => !r.is_system)
          .map((r: any) => r.title)
          .sort();
        expect(roles).toEqual(['Analyst', 'Media Buyer']);
        const plan = await cli(sb, ['plan', '-f', f, '--detailed-exitcode']);
        expect(plan.stdout).toContain('No changes');
        expect(plan.code).toBe(0);
      } finally {
        await sb.close();
      }
    });
  }
});

describe('edp apply', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await sandbox({ buildSeconds: 0 });
  });
  afterEach(async () => {
    await sb.close();
  });

  it('needs --yes when it cannot ask, and sends nothing', async () => {
    const f = writeFile('noyes.yaml', fleetText(sb, 'Analyst'));
    const r = await cli(sb, ['apply', '-f', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(recipesOf(sb, 101)).toHaveLength(0);
  });

  it('ends with one row per workspace and resource; a new endpoint is left unverified with its secret shown once', async () => {
    const f = writeFile('rows.yaml', fleetText(sb, 'Analyst'));
    const r = await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.json();
    expect(Object.keys(rows[0])).toEqual(APPLY_ROW_KEYS);
    const recipeRows = rows.filter((x: any) => x.resource === 'recipe');
    expect(recipeRows.map((x: any) => x.workspace_id)).toEqual([101, 102, 103]);
    for (const x of recipeRows)
      expect(x).toMatchObject({ action: 'create, configure, build', result: 'ok', state: 'ready_to_work' });
    const hook = rows.find((x: any) => x.resource === 'webhook' && x.workspace_id === 101);
    expect(hook).toMatchObject({ action: 'create', result: 'unverified', state: 'unverified' });
    expect(hook.secret).toBe(endpointsOf(sb, 101)[0].secret);
    expect(hook.note).toContain(`edp webhooks verify ${hook.id} -w 101`);
    expect(rows.filter((x: any) => x.resource === 'role').map((x: any) => `${x.name}:${x.action}`)).toEqual([
      'Media Buyer:update',
      'Analyst:create',
    ]);
    // Safe to re-run: nothing left to do, nothing sent.
    const again = await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('No changes');
    expect(endpointsOf(sb, 101)).toHaveLength(1);
  });

  it('--verify verifies a new endpoint whose receiver answers the challenge', async () => {
    const rx = await receiver();
    try {
      const f = writeFile(
        'verify.yaml',
        `workspaces: [103]\nwebhooks:\n  - url: ${rx.url}\n    events: [load_completed]\n`,
      );
      const r = await cli(sb, ['apply', '-f', f, '--yes', '--verify', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const [row] = r.json();
      expect(row).toMatchObject({ resource: 'webhook', action: 'create', result: 'ok', state: 'active' });
      expect(rx.received.some((x) => x.method === 'GET')).toBe(true);
      expect(endpointsOf(sb, 103).find((e: any) => e.url === rx.url).status).toBe('active');
    } finally {
      await rx.close();
    }
  });

  it('on a terminal: a table, and the secret of a new endpoint whole below it', async () => {
    const f = writeFile(
      'tty.yaml',
      'workspaces: [103]\nwebhooks:\n  - url: https://hooks.example.com/tty\n    events: [load_completed]\n',
    );
    const r = await cli(sb, ['apply', '-f', f, '--yes'], { tty: true });
    expect(r.code).toBe(0);
    const made = endpointsOf(sb, 103).find((e: any) => e.url === 'https://hooks.example.com/tty');
    expect(r.stdout).toContain('RESOURCE');
    expect(r.stdout).toContain(
      `secret of webhook endpoint ${made.id} (https://hooks.example.com/tty, workspace 103), shown only now: ${made.secret}`,
    );
    expect(r.stderr).toContain('+ webhook https://hooks.example.com/tty: create');
  });

  it('on a terminal it shows the plan and asks; declining changes nothing', async () => {
    const config = tempDir('edp-apply-prompt-');
    const env = { EDP_CONFIG_DIR: config.dir, EDP_BASE_URL: sb.url, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    const f = writeFile(
      'ask.yaml',
      'workspaces: [101]\nwebhooks:\n  - url: https://hooks.example.com/asked\n    events: [load_completed]\n',
    );
    try {
      const no = await answerPrompts(['apply', '-f', f], [['Apply 1 change(s)?', 'n\r']], env);
      expect(no.unanswered).toBe(0);
      expect(no.code).toBe(11);
      expect(no.err).toContain('+ webhook https://hooks.example.com/asked: create');
      expect(endpointsOf(sb, 101).some((e: any) => e.url === 'https://hooks.example.com/asked')).toBe(false);
      const yes = await answerPrompts(['apply', '-f', f], [['Apply 1 change(s)?', 'y\r']], env);
      expect(yes.code).toBe(0);
      expect(endpointsOf(sb, 101).filter((e: any) => e.url === 'https://hooks.example.com/asked')).toHaveLength(1);
    } finally {
      config.remove();
    }
  });

  it('a role permission not in the catalog is blocked in the plan and not sent (exit 2)', async () => {
    const f = writeFile(
      'perm.yaml',
      'workspaces: [101]\nroles:\n  - title: Media Buyer\n    description: Runs paid media extractions\n    permissions: [extract:run]\n  - title: Typo\n    permissions: [EXTRACT:RUNN]\n',
    );
    const r = await cli(sb, ['apply', '-f', f, '--yes', '--json']);
    expect(r.code).toBe(2);
    const rows = r.json();
    expect(rows.filter((x: any) => x.result !== 'ok')).toEqual([
      expect.objectContaining({
        resource: 'role',
        name: 'Typo',
        result: 'blocked',
        error: expect.objectContaining({ code: 'permission_unknown' }),
      }),
    ]);
    // The role whose pairs differ from the catalog's only in letter case is created with its spelling.
    expect(rows.filter((x: any) => x.result === 'ok').map((x: any) => x.name)).toEqual(['Media Buyer']);
    expect((sb.store.state as any).roles.some((x: any) => x.title === 'Typo')).toBe(false);
  });

  it('a template the service refuses to deploy ends as a failed row with its code (exit 6)', async () => {
    const f = writeFile(
      'draft.yaml',
      'workspaces: [103]\nrecipes:\n  - template: Attribution Model (draft)\n    sources:\n      - data_source: google_ads\n        accounts: [all-active]\n',
    );
    const r = await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST]);
    expect(r.code).toBe(6);
    expect(r.json()[0]).toMatchObject({
      resource: 'recipe',
      result: 'failed',
      error: { code: 'template_not_deployable' },
    });
    expect(recipesOf(sb, 103).filter((x) => x.template_id === 4007)).toHaveLength(0);
  });

  it('deletes endpoints and roles the file does not name only with --prune', async () => {
    const full = writeFile('full.yaml', fleetText(sb, 'Analyst'));
    expect((await cli(sb, ['apply', '-f', full, '--yes', ...FAST])).code).toBe(0);
    const in101 = endpointsOf(sb, 101).length;
    const small = writeFile(
      'small.yaml',
      `workspaces: [102]\nwebhooks:\n  - url: https://hooks.example.com/edp\n    events: [recipe_activated, load_completed]\nroles:\n  - title: Media Buyer\n    description: Runs paid media extractions\n    permissions: [EXTRACT:RUN]\n`,
    );
    const plain = await cli(sb, ['apply', '-f', small, '--yes', '--json']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('deleted only with --prune');
    expect(endpointsOf(sb, 102)).toHaveLength(2);
    expect((sb.store.state as any).roles.some((r: any) => r.title === 'Analyst')).toBe(true);
    const planned = await cli(sb, ['plan', '-f', small, '--prune', '--json']);
    expect(planned.json().workspaces[0].changes.map((c: any) => `${c.action} ${c.name}`)).toEqual([
      'delete https://hooks.example.com/ops',
    ]);
    const pruned = await cli(sb, ['apply', '-f', small, '--yes', '--prune', '--json']);
    expect(pruned.code).toBe(0);
    expect(pruned.json().map((x: any) => `${x.resource} ${x.action} ${x.name} ${x.result}`)).toEqual([
      'webhook delete https://hooks.example.com/ops ok',
      'role delete Analyst ok',
    ]);
    expect(endpointsOf(sb, 102).map((e: any) => e.url)).toEqual(['https://hooks.example.com/edp']);
    expect(endpointsOf(sb, 101)).toHaveLength(in101);
    expect((sb.store.state as any).roles.some((r: any) => r.title === 'Analyst')).toBe(false);
  });
});

describe('edp apply shows its builds as they run', () => {
  it('each build state is a line, prefixed by the workspace and the template, like a fleet deploy', async () => {
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const f = writeFile(
        'progress.yaml',
        `
workspaces: [101, 102]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [all-active]
`,
      );
      const r = await cli(sb, ['apply', '-f', f, '--yes', ...FAST]);
      expect(r.code, r.stderr).toBe(0);
      for (const ws of [101, 102]) {
        expect(r.stderr).toMatch(new RegExp(`^\\[${ws}\\] Paid Media Performance … 6/7 build: \\w+ \\(\\d+s\\)$`, 'm'));
        expect(r.stderr).toMatch(new RegExp(`^\\[${ws}\\] Paid Media Performance ✓ 6/7 built: ready_to_work$`, 'm'));
      }
    } finally {
      await sb.close();
    }
  });
});
