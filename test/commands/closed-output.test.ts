import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  cli,
  configuration,
  configure,
  control,
  createRecipe,
  endpointsOf,
  FAST,
  http,
  recipesOf,
  remoteOf,
  sandbox,
  tempDir,
  tokenFor,
  useFiles,
  useSandbox,
  V31,
} from '../support/index.js';

// A reader that stops early (`edp … | head -N`) closes the pipe: the next write fails with EPIPE.
// A run that changed something never stops half-way nor ends in success when part of what it
// had to show was lost; a pure read ends quietly; an error's exit code survives.

const writeFile = useFiles('edp-closed-');
const secretsDir = tempDir('edp-closed-secrets-');
afterAll(() => secretsDir.remove());
const dir = secretsDir.dir;

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
    it(`apply --secrets-file with \`2>&1 | head -${lines}\`: all or nothing, and never exit 0`, async () => {
      const sb = await sandbox({ buildSeconds: 0 });
      try {
        const f = writeFile(`fleet-${lines}.yaml`, fleet(sb));
        const secrets = join(dir, `secrets-${lines}.json`);
        const r = await cli(sb, ['apply', '-f', f, '--yes', '--secrets-file', secrets, ...FAST], { bothLines: lines });
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

  it('apply at a terminal whose reader goes away: the rest goes to stderr, and every secret of the run is named', async () => {
    // The same apply on a terminal that reads on: the lines before the first secret's.
    const whole = await sandbox({ buildSeconds: 0 });
    let before: number;
    try {
      const f = writeFile('fleet-whole.yaml', fleet(whole));
      const r = await cli(whole, ['apply', '-f', f, '--yes', ...FAST], { tty: true });
      before = r.stdout.split('\n').findIndex((l) => l.startsWith('secret of webhook endpoint '));
      expect(before).toBeGreaterThan(0);
    } finally {
      await whole.close();
    }
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const f = writeFile('fleet-stdout.yaml', fleet(sb));
      // What comes before and the first secret's line reach the terminal; the second's does not.
      const r = await cli(sb, ['apply', '-f', f, '--yes', ...FAST], { tty: true, stdoutLines: before + 1 });
      expect(r.code).toBe(141);
      expect(r.stderr).toContain('the reader of standard output went away');
      expect(r.stdout.match(/^secret of webhook endpoint /gm)).toHaveLength(1);
      // A secret that reached the reader is named too: what else was lost is not known line by line.
      for (const ws of [101, 102]) {
        const [endpoint] = endpointsOf(sb, ws) as any[];
        expect(r.stderr).toContain(`edp webhooks rotate-secret ${endpoint.id} -w ${ws}`);
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

describe('a one-time secret and a pipe', () => {
  const t = useSandbox();
  const create = (url: string, ...more: string[]) => [
    'webhooks',
    'create',
    '-w',
    '101',
    '--url',
    url,
    '--events',
    'load_completed',
    ...more,
  ];
  const endpointAt = (url: string) => (endpointsOf(t.sb, 101) as any[]).filter((e) => e.url === url);

  it('webhooks create | head -1: refused before anything is sent, naming --secrets-file and --json', async () => {
    const r = await cli(t.sb, create('https://hooks.example.com/c'), { stdoutLines: 1 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('standard output is a pipe');
    expect(r.stderr).toContain('--secrets-file FILE');
    expect(r.stderr).toContain('--json');
    expect(endpointAt('https://hooks.example.com/c')).toHaveLength(0);
  });

  it('webhooks rotate-secret | head -1: refused before the question, and the old secret still holds', async () => {
    const made = await cli(t.sb, create('https://hooks.example.com/r', '--json'));
    const { id, secret } = made.json();
    const r = await cli(t.sb, ['webhooks', 'rotate-secret', String(id), '-w', '101', '--yes'], { stdoutLines: 1 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--secrets-file FILE');
    expect(endpointAt('https://hooks.example.com/r')[0].secret).toBe(secret);
  });

  it('webhooks create --json with the pipe closed: fails with the command that makes a new secret', async () => {
    const r = await cli(t.sb, create('https://hooks.example.com/j', '--json'), { stdoutLines: 0 });
    const [endpoint] = endpointAt('https://hooks.example.com/j');
    expect(r.code).toBe(141);
    expect(r.errorJson().error.message).toContain(`edp webhooks rotate-secret ${endpoint.id} -w 101`);
  });

  it('webhooks create --jq .secret with the pipe closed: the filtered secret was lost, and the run says which', async () => {
    const r = await cli(t.sb, ['--jq', '.secret', ...create('https://hooks.example.com/q')], { stdoutLines: 0 });
    const [endpoint] = endpointAt('https://hooks.example.com/q');
    expect(r.code).toBe(141);
    expect(r.stderr).toContain(`edp webhooks rotate-secret ${endpoint.id} -w 101`);
  });

  it('webhooks create --secrets-file | head -0: the secret is in the file, never in the output', async () => {
    const file = join(dir, 'create.json');
    const r = await cli(t.sb, create('http://127.0.0.1:4011/f', '--secrets-file', file), { stdoutLines: 0 });
    const [endpoint] = endpointAt('http://127.0.0.1:4011/f');
    // The output was lost, but the secret was not: no rotation is asked for.
    expect(r.code).toBe(141);
    expect(r.stderr).not.toContain('rotate-secret');
    expect(r.stderr).not.toContain(endpoint.secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).endpoints).toEqual([
      {
        workspace_id: '101',
        endpoint_id: String(endpoint.id),
        url: 'http://127.0.0.1:4011/f',
        secret: endpoint.secret,
      },
    ]);
  });

  it('at a terminal with stderr piped: the secret is on the terminal, not repeated into the pipe', async () => {
    const r = await cli(t.sb, create('http://127.0.0.1:4012/t'), { tty: true, stderrLines: 100 });
    const [endpoint] = endpointAt('http://127.0.0.1:4012/t');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(endpoint.secret);
    expect(r.stderr).not.toContain(endpoint.secret);
    expect(r.stderr).toContain('EDP_WEBHOOK_SECRET=SECRET edp webhooks listen --port 4012');
  });
});

describe('apply, whose plan creates webhook endpoints, and a pipe', () => {
  // Three endpoints in each of three workspaces: nine secrets.
  const nine = (sb: Sandbox) => `
workspaces: [101, 102, 103]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}]
webhooks:
  - url: https://hooks.example.com/n1
    events: [recipe_activated]
  - url: https://hooks.example.com/n2
    events: [recipe_activated]
  - url: https://hooks.example.com/n3
    events: [recipe_activated]
`;
  const all = (sb: Sandbox) => [101, 102, 103].flatMap((ws) => endpointsOf(sb, ws) as any[]);

  it('apply | head -1: refused after the plan and before any change (exit 2)', async () => {
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const f = writeFile('nine-refused.yaml', nine(sb));
      const r = await cli(sb, ['apply', '-f', f, '--yes', ...FAST], { stdoutLines: 1 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('this plan creates webhook endpoints');
      expect(r.stderr).toContain('--secrets-file FILE');
      expect(all(sb)).toHaveLength(0);
      expect(recipesOf(sb, 101).filter((x: any) => x.template_id === 4001)).toHaveLength(0);
    } finally {
      await sb.close();
    }
  });

  it('apply --json with the pipe closed names all nine secrets; a plan creating none is not refused', async () => {
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const f = writeFile('nine-json.yaml', nine(sb));
      const r = await cli(sb, ['apply', '-f', f, '--yes', '--json', ...FAST], { stdoutLines: 0 });
      expect(r.code).toBe(141);
      const message = r.errorJson().error.message;
      expect(all(sb)).toHaveLength(9);
      for (const e of all(sb)) expect(message).toContain(`edp webhooks rotate-secret ${e.id} -w ${e.workspace_id}`);
      // Applied again, the plan creates no endpoint: nothing to refuse.
      const again = await cli(sb, ['apply', '-f', f, '--yes', ...FAST], { stdoutLines: 100 });
      expect(again.code).toBe(0);
    } finally {
      await sb.close();
    }
  });
});
