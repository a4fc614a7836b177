import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, control, http, sandbox, tokenFor, useSandbox } from '../helpers.js';
import { V31, configuration, configure, createRecipe } from '../fixtures/recipes.js';
import { FAST, useFiles } from '../fixtures/files.js';
import { endpointsOf, recipesOf, remoteOf } from '../fixtures/fleet.js';

// A reader that stops early (`edp … | head -N`) closes the pipe: the next write fails with EPIPE.
// A run that changed something never stops half-way nor ends in success when part of what it
// had to show was lost; a pure read ends quietly; an error's exit code survives.

const writeFile = useFiles('edp-closed-');

const fleet = (sb: Sandbox) => `
workspaces: [101, 102]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}]
webhooks:
  - url: https://hooks.example.com/closed
    events: [recipe_activated]
`;

const built = (sb: Sandbox, ws: number) =>
  recipesOf(sb, ws).filter((r: any) => r.template_id === 4001 && r.state === 'ready_to_work');

describe('a closed output during a run that changes things', () => {
  // An output closed before anything is sent stops the run with nothing done (head -0); one
  // closed while the changes are under way lets every change be carried to its end.
  for (const lines of [0, 3, 12, 20]) {
    it(`apply with \`2>&1 | head -${lines}\`: all or nothing, and never exit 0`, async () => {
      const sb = await sandbox({ buildSeconds: 0 });
      try {
        const f = writeFile(`fleet-${lines}.yaml`, fleet(sb));
        const r = await cli(sb, ['apply', '-f', f, '--yes', ...FAST], { bothLines: lines });
        const changes = lines > 0;
        for (const ws of [101, 102]) {
          expect(built(sb, ws)).toHaveLength(changes ? 1 : 0);
          expect(recipesOf(sb, ws).filter((x: any) => x.template_id === 4001)).toHaveLength(changes ? 1 : 0);
          expect(endpointsOf(sb, ws)).toHaveLength(changes ? 1 : 0);
        }
        expect(r.code).toBe(141);
      } finally {
        await sb.close();
      }
    });
  }

  it('apply with `| head -1`: the rest of the report and the secrets go to stderr, and the run fails', async () => {
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const f = writeFile('fleet-stdout.yaml', fleet(sb));
      const r = await cli(sb, ['apply', '-f', f, '--yes', ...FAST], { stdoutLines: 1 });
      expect(r.code).toBe(141);
      expect(r.stderr).toContain('the reader of standard output went away');
      // Each secret, shown once by the service, reached the stream still open.
      for (const ws of [101, 102]) {
        const [endpoint] = endpointsOf(sb, ws) as any[];
        expect(r.stdout + r.stderr).toContain(`secret of webhook endpoint ${endpoint.id} `);
      }
    } finally {
      await sb.close();
    }
  });

  it('apply --json with stdout closed: the lost secrets fail the run, with the command that makes new ones', async () => {
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const f = writeFile('fleet-json.yaml', fleet(sb));
      const r = await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST], { stdoutLines: 0 });
      expect(r.code).toBe(141);
      const doc = r.errorJson();
      expect(doc.error.code).toBe('output_closed');
      for (const ws of [101, 102]) {
        const [endpoint] = endpointsOf(sb, ws) as any[];
        expect(doc.error.message).toContain(`edp webhooks rotate-secret ${endpoint.id} -w ${ws}`);
        expect(built(sb, ws)).toHaveLength(1);
      }
    } finally {
      await sb.close();
    }
  });

  for (const lines of [0, 4, 7, 16]) {
    it(`recipes deploy across workspaces with \`2>&1 | head -${lines}\`: all or nothing, exit 141`, async () => {
      const sb = await sandbox({ buildSeconds: 0 });
      try {
        const r = await cli(
          sb,
          [
            'recipes',
            'deploy',
            '-w',
            '101,102,103',
            '--template',
            '4001',
            '--data-source',
            'google_ads',
            '--accounts',
            'all-active',
            ...FAST,
          ],
          { bothLines: lines },
        );
        // Before the first create, closing the output stops the run: nothing is sent.
        const changes = recipesOf(sb, 101).length + recipesOf(sb, 102).length + recipesOf(sb, 103).length > 0;
        if (lines >= 7) expect(changes).toBe(true);
        if (lines === 0) expect(changes).toBe(false);
        for (const ws of [101, 102, 103]) {
          expect(recipesOf(sb, ws).filter((x: any) => x.template_id === 4001)).toHaveLength(changes ? 1 : 0);
          expect(built(sb, ws)).toHaveLength(changes ? 1 : 0);
        }
        expect(r.code).toBe(141);
      } finally {
        await sb.close();
      }
    });
  }
});

describe('a closed output during a run that changes nothing', () => {
  const t = useSandbox({ buildSeconds: 0 });

  it('a list stops quietly with 141, as `yes | head -1` does', async () => {
    const r = await cli(t.sb, ['workspaces', 'list', '--ndjson', '--limit', '2'], { stdoutLines: 0 });
    expect(r.code).toBe(141);
    expect(r.stderr).toBe('');
  });

  it("an error's exit code survives `2>&1 | head -1`", async () => {
    const r = await cli(t.sb, ['workspaces', 'list'], { bothLines: 1, env: { EDP_PASSWORD: 'wrong' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^error: /);
  });

  it('a watch at a terminal whose reader went away ends instead of watching on', async () => {
    // A build that would keep the watch going for a minute.
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    const token = await tokenFor(t.sb, 102);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 102, { google_ads: 'all' }));
    expect((await http(t.sb, 'POST', `${V31}${id}/build/`, { token })).status).toBe(202);
    const r = await cli(t.sb, ['recipes', 'status', '-w', '102', '--watch', ...FAST], { tty: true, stdoutLines: 0 });
    expect(r.code).toBe(141);
    expect(r.stderr).not.toContain('error');
    expect(t.sb.store.state.recipes.find((x) => x.id === id)!.state).not.toBe('ready_to_work');
  });
});

describe('webhooks create with its output closed', () => {
  const t = useSandbox();

  it('fails with the command that makes a new secret when the secret could not be shown', async () => {
    const r = await cli(
      t.sb,
      ['webhooks', 'create', '-w', '101', '--url', 'https://hooks.example.com/c', '--events', 'load_completed'],
      { bothLines: 0 },
    );
    expect(r.code).toBe(141);
    const [endpoint] = (endpointsOf(t.sb, 101) as any[]).filter((e) => e.url === 'https://hooks.example.com/c');
    expect(endpoint).toBeDefined();
  });

  it('fails the same way when stdout took nothing, the rest reported on stderr', async () => {
    const r = await cli(
      t.sb,
      ['webhooks', 'create', '-w', '101', '--url', 'https://hooks.example.com/d', '--events', 'load_completed'],
      { stdoutLines: 0 },
    );
    const [endpoint] = (endpointsOf(t.sb, 101) as any[]).filter((e) => e.url === 'https://hooks.example.com/d');
    expect(r.code).toBe(141);
    expect(r.stderr).toContain(`webhooks rotate-secret ${endpoint.id} -w 101`);
  });
});
