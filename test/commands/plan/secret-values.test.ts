import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cli, http, tempDir, useSandbox } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';
import { endpointsOf } from '../../fixtures/fleet.js';

const writeFile = useFiles('edp-fleet-secret-');
const t = useSandbox({ buildSeconds: 0 });

const SECRET = 'sv-8d41c2e97f3a';
/** A secret the service never shows back: a destination's secret field. */
const LAKE = 'lk-93be07f1c6d2';

it('a value from the environment reaches the service in the request, and nothing the tool prints, logs or writes', async () => {
  const dir = tempDir().dir;
  const f = writeFile(
    'fleet.yaml',
    `clients:
  - {title: Acme Retail, id: 101, vars: {slug: acme}}
webhooks:
  - url: "https://hooks.example.com/\${var.slug}?key=\${env.HOOK_KEY}"
    events: [recipe_activated]
destinations:
  - destination: s3
    title: Client Lake
    workspaces: [101]
    params: {bucket: "\${var.slug}-lake", region: eu-west-1, aws_access_key_id: AKIASECRETTEST, aws_secret_access_key: "\${env.LAKE_SECRET}"}
roles:
  - title: Night Shift
    description: "on call: \${env.HOOK_KEY}"
    permissions: [EXTRACT:RUN]
`,
  );
  const out = join(dir, 'plan.json');
  const secrets = join(dir, 'secrets.json');
  const exported = join(dir, 'export.yaml');
  const env = { HOOK_KEY: SECRET, LAKE_SECRET: LAKE, EDP_DEBUG: '1' };
  const runs = [
    await cli(t.sb, ['plan', '-f', f, '--verbose'], { env }),
    await cli(t.sb, ['plan', '-f', f, '--format', 'markdown', '--verbose'], { env }),
    await cli(t.sb, ['plan', '-f', f, '--json', '--verbose'], { env }),
    await cli(t.sb, ['plan', '-f', f, '--out', out, '--verbose'], { env }),
    await cli(t.sb, ['apply', out, '--yes', '--secrets-file', secrets, '--verbose'], { env }),
    await cli(t.sb, ['apply', '-f', f, '--yes', '--json', '--verbose'], { env }),
    await cli(t.sb, ['plan', '-f', f, '--detailed-exitcode', '--verbose'], { env }),
    await cli(t.sb, ['export', '-w', '101', '--output', exported, '--verbose'], { env }),
  ];
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  // The runs said something: the plan, the rows, the requests (--verbose).
  expect(runs[0]!.stdout).toContain('+ webhook (from env HOOK_KEY): create');
  expect(runs[0]!.stdout).toContain('+ role "Night Shift": create');
  expect(runs[4]!.stderr).toMatch(/POST \/api\/v3\/webhook_endpoints\/ 201/);
  const printed = runs.flatMap((r) => [r.stdout, r.stderr]).join('\n');
  const written = [readFileSync(out, 'utf8'), readFileSync(secrets, 'utf8')].join('\n');
  const journal = JSON.stringify((await http(t.sb, 'GET', '/_sandbox/requests')).body);
  for (const text of [printed, written, journal]) expect(text).not.toContain(SECRET);
  expect(written).toContain('(from env HOOK_KEY)');
  expect(written).toContain('(from env LAKE_SECRET)');
  // The export is the service's state: the url as it shows it, never the secret field it never shows.
  const exportText = readFileSync(exported, 'utf8');
  for (const text of [printed, written, journal, exportText]) expect(text).not.toContain(LAKE);
  expect(exportText).toContain(`https://hooks.example.com/acme?key=${SECRET}`);

  // Sent: the service has the values.
  expect(endpointsOf(t.sb, 101).map((e: any) => e.url)).toEqual([`https://hooks.example.com/acme?key=${SECRET}`]);
  expect(t.sb.store.state.roles!.find((r) => r.title === 'Night Shift')!.description).toBe(`on call: ${SECRET}`);
  const lake = t.sb.store.state.destination_connections.find((d) => d.title === 'Client Lake');
  expect(lake?.connection_params).toMatchObject({ bucket: 'acme-lake', aws_secret_access_key: LAKE });
}, 30_000);
