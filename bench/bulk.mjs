// `edp extracts run --failed --all-workspaces --yes` over 500 workspaces (or the size given:
// `node bench/bulk.mjs 100`) on a sandbox with --latency 20, against its ideal chain.
//
// Every workspace has one extract whose last run failed (the demo's three have three extracts
// that completed, none failed). A run reads the workspaces once (the agency's chain: its
// pages), then each workspace's token and extracts, C workspaces at a time, then runs each
// failed extract, C workspaces at a time (`auto`: at most 16):
//   ideal(N) = max(run(N, latency 0), (agency(N) + ceil(N / C) * workspace) * latency)
// One workspace's chain (its token, its extracts, its run) is what a second workspace adds to a
// run at concurrency 1; the agency's is that of `edp workspaces list` over the same workspaces.
// Each is measured at a latency of 200 ms against none (ten times the bench's, so that a
// process's start does not count as a request), the median of three. Every run starts cold (a
// config folder of its own) from the same state (a sandbox snapshot restored before it), so
// that each finds the same failed extracts. The full runs, with latency and without, are the
// medians of three, interleaved. Measured in one run; no assertions.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';
import { benchDir, benchEnv, growFleet, json, PASSWORD, requestsInARow, timedEdp, USERNAME } from './lib/fleet.mjs';

const LATENCY_MS = 20;
const CHAIN_LATENCY_MS = 200;
const CONCURRENCY = 16; // the `auto` default's cap for a command that changes things (src/config/defaults.ts)
const SIZE = Number(process.argv[2]) || 500;
const TEMPLATE = 301; // the demo's google_ads extraction template
const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

const sandbox = await startSandbox({ port: 0, latencyMs: 0, buildSeconds: 0.05 });
const control = (path, method, body) =>
  json(`${sandbox.url}/_sandbox${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
const latency = (ms) => control('/faults', 'PATCH', { latency_ms: ms });

const workspaces = await growFleet(sandbox, SIZE);
// One extract per grown workspace, on an account of its google_ads connection, whose first run fails.
await control('/recipes/extraction-behavior', 'PATCH', { datasource_name: 'google_ads', behavior: 'fails' });
for (const ws of workspaces.slice(3)) {
  const { token } = await json(`${sandbox.url}/api/v3/token`, {
    method: 'POST',
    headers: { authorization: basic },
    body: JSON.stringify({ workspace_id: ws }),
  });
  const account = sandbox.store.state.accounts.find(
    (a) => a.workspace_id === ws && a.datasource_name === 'google_ads' && a.is_active,
  );
  await json(`${sandbox.url}/api/v3.1/extracts/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify({ template_id: TEMPLATE, account_embedded_id: account.id, schedule: 'manual' }),
  });
}
for (;;) {
  const running = sandbox.store.state.extracts.filter((e) => e.status === 'running').length;
  if (running === 0) break;
  await new Promise((r) => setTimeout(r, 50));
}
const failed = sandbox.store.state.extracts.filter((e) => e.status === 'failed').length;
// The runs a measured run starts never end: the state each run starts from is the snapshot's anyway.
await control('/recipes/extraction-behavior', 'PATCH', { datasource_name: 'google_ads', behavior: 'never_delivers' });
await control('/snapshots/bench', 'PUT');

const dir = benchDir('bulk');

/** One command as a separate process, cold, from the snapshot's state: its wall time in ms. */
async function edp(args) {
  await control('/snapshots/bench/restore', 'POST');
  return timedEdp(args, benchEnv(sandbox, mkdtempSync(join(dir, 'run-'))));
}

/** Requests in a row of `args`: the median of three (200 ms against none). */
const chainOf = (args) => requestsInARow(() => edp(args), latency, CHAIN_LATENCY_MS);

try {
  const run = (scope, c) => [
    'extracts',
    'run',
    '--failed',
    '--yes',
    ...scope,
    ...(c ? ['--concurrency', String(c)] : []),
  ];
  const [a, b] = workspaces.slice(3);
  const one = await chainOf(run(['-w', String(a)], 1));
  const workspace = Math.max(1, Math.round((await chainOf(run(['-w', `${a},${b}`], 1))) - one));
  const agency = Math.max(1, Math.round(await chainOf(['workspaces', 'list', '--json'])));
  const rounds = Math.ceil(workspaces.length / CONCURRENCY);

  // Medians of three, interleaved: a cold run writes a token per workspace (fsynced), which a
  // busy machine slows more than the latency does.
  const floors = [];
  const runs = [];
  for (let i = 0; i < 3; i++) {
    await latency(0);
    floors.push(await edp(run(['--all-workspaces'])));
    await latency(LATENCY_MS);
    runs.push(await edp(run(['--all-workspaces'])));
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[1];
  const floor = median(floors);
  const measured = median(runs);
  const bound = (agency + rounds * workspace) * LATENCY_MS;
  const ideal = Math.max(floor, bound);
  console.log(
    `edp extracts run --failed --all-workspaces --yes on Node ${process.versions.node}; ${workspaces.length} workspaces, ${failed} failed extracts, sandbox latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY} (auto)`,
  );
  console.log(
    `  requests in a row: ${agency} for the agency (the workspaces' pages) + ${workspace} per workspace (token, extracts, run), ${rounds} rounds`,
  );
  console.log(
    `  measured ${Math.round(measured)} ms; no latency ${Math.round(floor)} ms; latency bound ${Math.round(bound)} ms; ratio ${(measured / ideal).toFixed(2)}x`,
  );
} finally {
  await sandbox.close();
}
