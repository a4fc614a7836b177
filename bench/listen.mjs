// Deliveries per second that `edp webhooks listen` verifies and acknowledges on one core, and its
// p99 acknowledgement time. A local load generator (undici Pool, fixed concurrency) sends a
// bounded number of signed deliveries, each with its own idempotency key, to the built CLI
// running as a child process (pinned to one CPU with taskset when available).
//
//   npm run build && node bench/listen.mjs [--count 20000] [--concurrency 32] [--warmup 2000]
//
// Prints the numbers; no timed assertions. Exits 1 only if the receiver lost or repeated events.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Pool } from 'undici';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const n = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
}
const COUNT = option('count', 20_000);
const CONCURRENCY = option('concurrency', 32);
const WARMUP = option('warmup', 2_000);

if (!existsSync('dist/cli.cjs')) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(2);
}

const secret = randomBytes(32).toString('hex');
const pin = process.platform === 'linux' && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const argv = [process.execPath, 'bin/edp.js', 'webhooks', 'listen', '--port', '0'];
const child = spawn(pin ? 'taskset' : argv[0], pin ? ['-c', '0', ...argv] : argv.slice(1), {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, EDP_WEBHOOK_SECRET: secret, NO_COLOR: '1' },
});

// Every printed line is one accepted event: count them and check each id appears once.
const printed = new Map();
let partial = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  const lines = (partial + chunk).split('\n');
  partial = lines.pop();
  for (const line of lines) {
    if (!line) continue;
    const id = JSON.parse(line).id;
    printed.set(id, (printed.get(id) ?? 0) + 1);
  }
});
let stderr = '';
const url = await new Promise((resolve, reject) => {
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    const m = /Listening on (http:\/\/[^\s]+)/.exec(stderr);
    if (m) resolve(m[1]);
  });
  child.once('exit', (code) => reject(new Error(`listener exited (${code}): ${stderr}`)));
});

/** Signed deliveries built before timing, so the generator only sends. */
function deliveries(n, tag) {
  // Stamped now: the listener refuses a delivery whose timestamp is older than its replay window.
  const timestamp = new Date().toISOString().replace('T', ' ').replace('Z', '');
  const out = [];
  for (let i = 0; i < n; i++) {
    const body = JSON.stringify({
      id: `evt_${tag}_${i}`,
      type: 'load_completed',
      timestamp,
      data: {
        product_domain_event_inserted_at: timestamp,
        product_domain_event_aggregate_class: 'Load',
        product_domain_event_class: 'LoadCompleted',
        product_domain_event_usecase: '',
        product_domain_event: 'load_completed',
        agency_title: 'Bench Agency',
        workspace_title: 'Bench Workspace',
        load_destination_title: 'S3',
        load_id: String(i),
        order_id: String(i),
        order_ui_link: '',
      },
    });
    out.push({
      body,
      headers: {
        'content-type': 'application/json',
        'x-service-signature': createHmac('sha256', secret).update(body).digest('hex'),
        'x-service-idempotency-key': randomUUID(),
      },
    });
  }
  return out;
}

const pool = new Pool(url, { connections: CONCURRENCY });
async function send(batch, latencies) {
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < batch.length) {
      const i = next++;
      const started = performance.now();
      const res = await pool.request({ method: 'POST', path: '/hook', headers: batch[i].headers, body: batch[i].body });
      await res.body.dump();
      if (latencies) latencies[i] = performance.now() - started;
      if (res.statusCode !== 200) failures++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failures;
}

await send(deliveries(WARMUP, 'warmup'));
const batch = deliveries(COUNT, 'run');
const latencies = new Float64Array(COUNT);
const started = performance.now();
const failures = await send(batch, latencies);
const seconds = (performance.now() - started) / 1000;

// Let the last lines arrive, then stop the listener as Ctrl-C would.
await new Promise((r) => setTimeout(r, 200));
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));
await pool.close();

latencies.sort();
const pct = (p) => latencies[Math.min(COUNT - 1, Math.floor((p / 100) * COUNT))];
const runIds = [...printed].filter(([id]) => id.startsWith('evt_run_'));
const repeated = runIds.filter(([, n]) => n !== 1).length;
const rate = COUNT / seconds;
console.log(
  `edp webhooks listen: ${COUNT} signed deliveries, concurrency ${CONCURRENCY}, listener ${pin ? 'pinned to one CPU' : 'one process (taskset unavailable)'}`,
);
console.log(`  throughput   ${rate.toFixed(0)} deliveries/s (target >= 2000)`);
console.log(
  `  ack latency  p50 ${pct(50).toFixed(2)} ms, p99 ${pct(99).toFixed(2)} ms (target < 20 ms), max ${latencies[COUNT - 1].toFixed(2)} ms`,
);
console.log(
  `  printed      ${runIds.length} of ${COUNT} events, ${repeated} more than once, ${failures} non-200 answers`,
);
process.exitCode = runIds.length === COUNT && repeated === 0 && failures === 0 ? 0 : 1;
