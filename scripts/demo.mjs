// `npm run demo`: starts the sandbox in this process and drives the real CLI against it, the
// way an operator would on a fresh machine.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const sandbox = await startSandbox({ port: 0, buildSeconds: 0.5, webhookDelay: 0.2 });
const env = {
  ...process.env,
  EDP_BASE_URL: sandbox.url,
  EDP_USERNAME: 'agency@sandbox.local',
  EDP_PASSWORD: 'sandbox',
  EDP_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'edp-demo-')),
};

function edp(...args) {
  process.stderr.write(`\n$ edp ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, ['bin/edp.js', ...args], { env, stdio: 'inherit' });
  if (r.status !== 0) process.stderr.write(`(exit ${r.status})\n`);
  return r.status;
}

console.error(`Sandbox listening on ${sandbox.url}`);
let failed = 0;
failed += edp('auth', 'status') ? 1 : 0;
failed += edp('workspaces', 'list') ? 1 : 0;
failed += edp('agency-recipes', 'list') ? 1 : 0;
failed += edp('workspaces', 'enable-recipe', '101', '501') ? 1 : 0;
failed += edp('workspaces', 'dashboards', '101') ? 1 : 0;
failed += edp('token', '-w', '101', '--json') ? 1 : 0;
failed += edp('iframe-url', '-w', '101', '--type', 'datasource', '--name', 'google_ads', '--show-account-selection') ? 1 : 0;
await sandbox.close();
process.exitCode = failed ? 1 : 0;
