import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { endpointsOf } from '../fixtures/fleet.js';
import { operatorEnv, requireBuild, runEdp } from './helpers.js';

// The built command line as a process: a client's workspace created by apply with its entry, a
// value of the environment sent and shown only as (from env NAME), and a saved plan that needs it set again.

const dir = tempDir('edp-e2e-clients-');
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
});
afterAll(async () => {
  await sb.close();
  dir.remove();
});

it('plans, saves and applies a new client with a value from the environment, built', async () => {
  const fleet = join(dir.dir, 'onboard.yaml');
  const saved = join(dir.dir, 'plan.json');
  writeFileSync(
    fleet,
    `clients:
  - title: Umbrella Foods
    vars: {slug: umbrella}
webhooks:
  - url: "https://hooks.example.com/\${var.slug}?key=\${env.HOOK_KEY}"
    events: [recipe_activated]
`,
  );
  const env = (extra: Record<string, string> = {}) => ({ env: operatorEnv(sb.url, join(dir.dir, 'config'), extra) });
  const plan = await runEdp(['plan', '-f', fleet, '--out', saved], env({ HOOK_KEY: 'e2e-key-1' }));
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain(
    `workspace "Umbrella Foods" (new):\n  + workspace "Umbrella Foods": create (a client's workspace)\n  + webhook (from env HOOK_KEY): create`,
  );
  const unset = await runEdp(['apply', saved, '--yes', '--json'], env());
  expect(unset.code).toBe(2);
  expect(unset.stderr).toContain('HOOK_KEY is not set');
  const apply = await runEdp(['apply', saved, '--yes', '--json'], env({ HOOK_KEY: 'e2e-key-1' }));
  expect(apply.code).toBe(0);
  expect(apply.stdout + apply.stderr).not.toContain('e2e-key-1');
  const created = sb.store.state.workspaces.find((w) => w.title === 'Umbrella Foods')!;
  expect(endpointsOf(sb, created.id).map((e: any) => e.url)).toEqual([
    'https://hooks.example.com/umbrella?key=e2e-key-1',
  ]);
});
