// What the fleet benches share (bench/fleet.mjs, fleet-plan.mjs, fleet-scale.mjs, bulk.mjs,
// freshness.mjs): the demo agency's credentials, a fleet of workspaces on a sandbox, the
// environment a timed edp runs in, a timed edp and its requests in a row, and the fleet file of
// the plan and apply benches. Not a bench itself.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const USERNAME = 'agency@sandbox.local';
export const PASSWORD = 'sandbox';
const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

/** A JSON request to the sandbox; anything but a 2xx throws. */
export async function json(url, init = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * The demo's three workspaces and as many more as make `size`, created through the API and
 * equipped like the demo's (connections, accounts, an S3 destination): their ids.
 */
export async function growFleet(sandbox, size) {
  const workspaces = [101, 102, 103];
  for (let i = workspaces.length; i < size; i++) {
    const ws = await json(`${sandbox.url}/api/v3/workspaces`, {
      method: 'POST',
      headers: { authorization: basic },
      body: JSON.stringify({ title: `Fleet ${i + 1}` }),
    });
    await json(`${sandbox.url}/_sandbox/recipes/equip-workspace`, {
      method: 'POST',
      body: JSON.stringify({ workspace_id: ws.id }),
    });
    workspaces.push(ws.id);
  }
  return workspaces;
}

/**
 * The environment of a timed edp: the sandbox, the demo's credentials, a config folder of its
 * own (`dir`), and no NODE_EXTRA_CA_CERTS (it adds ~70 ms to every Node start).
 */
export function benchEnv(sandbox, dir) {
  const { NODE_EXTRA_CA_CERTS: _ignored, ...parent } = process.env;
  return { ...parent, EDP_BASE_URL: sandbox.url, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_CONFIG_DIR: dir };
}

/** A new temporary folder named after the bench. */
export const benchDir = (name) => mkdtempSync(join(tmpdir(), `edp-bench-${name}-`));

/** The fleet file of the plan and apply benches, over `ws`, written in `dir`: a recipe from remote account ids, an endpoint, a role. */
export function fleetFile(dir, ws) {
  const file = join(dir, `fleet-${ws.length}.yaml`);
  writeFileSync(
    file,
    `workspaces: [${ws.join(', ')}]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:123-456-7801, remote:123-456-7802, remote:123-456-7803]
webhooks:
  - url: https://hooks.example.com/edp
    events: [recipe_activated, load_completed]
roles:
  - title: Media Buyer
    description: Runs paid media extractions
    permissions: [EXTRACT:RUN]
`,
  );
  return file;
}

/**
 * The fleet file of the kinds bench, over `ws`, written in `dir`: an extract per active account
 * of a template, an S3 connection (its keys sent only when it is created), the accounts enabled
 * for extraction, and the fields the extracts' table delivers.
 */
export function kindsFile(dir, ws) {
  const file = join(dir, `kinds-${ws.length}-${ws[0]}.yaml`);
  writeFileSync(
    file,
    `workspaces: [${ws.join(', ')}]
extracts:
  - template: Facebook Ads Campaign performance
    data_source: facebook_ads
    accounts: [all-active]
    schedule: daily
destinations:
  - destination: s3
    title: Lake
    params: {bucket: fleet-lake, region: eu-west-1, aws_access_key_id: AKIABENCH, aws_secret_access_key: bench-secret}
accounts:
  - data_source: google_ads
    enabled: [all-active]
tables:
  - table: Facebook Ads Campaign performance
    selected_fields: [date, campaign_id, campaign_name, impressions, clicks, spend]
`,
  );
  return file;
}

/** One edp command as a separate process: its wall time in ms; an exit code not in `ok` fails it. */
export function timedEdp(args, env, ok = [0]) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/edp.js', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (!ok.includes(code)) return reject(new Error(`edp ${args.join(' ')} exited ${code}\n${err}`));
      resolve(performance.now() - started);
    });
  });
}

/**
 * Requests in a row of a run: its time at `chainMs` of latency less its time at none, in units of
 * `chainMs` (ten times a bench's latency, so that a process's start does not count as a request);
 * the median of three.
 */
export async function requestsInARow(run, setLatency, chainMs) {
  const chains = [];
  for (let i = 0; i < 3; i++) {
    await setLatency(0);
    const fast = await run();
    await setLatency(chainMs);
    const slow = await run();
    chains.push((slow - fast) / chainMs);
  }
  return chains.sort((a, b) => a - b)[1];
}
