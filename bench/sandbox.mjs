// Sandbox throughput: GET requests per second at 50 connections, as a ratio to a bare fastify
// "hello world" measured in the same run. Each server runs in its own process (one core for the
// server, one for the load generator); autocannon drives both the same way, in alternating
// rounds so that both see the same machine. The sandbox request is a workspace-scoped list with
// a Bearer token: authentication, the store, the paginated envelope and the JSON reply, which is
// what clients mostly do. Prints each round, then the medians (req/s and latency) of both and the
// ratio of the medians. Measured in one run; no assertions.
//
// The sandbox is the built one (dist/sandbox.js, `npm run build`); BENCH_SANDBOX names another
// build of src/sandbox/index.ts. BENCH_CONNECTIONS, BENCH_SECONDS (per round), BENCH_ROUNDS.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SANDBOX = pathToFileURL(resolve(process.env.BENCH_SANDBOX ?? 'dist/sandbox.js')).href;
const USERNAME = 'agency@sandbox.local';
const PASSWORD = 'sandbox';
const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

/** Starts a node process running `script` and resolves with its URL, read from the first stdout line holding one. */
async function server(script) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s]+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code} before listening`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

function load(url, headers = {}, duration = SECONDS) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

const HELLO = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('http://127.0.0.1:' + app.server.address().port + '/');
`;

const SANDBOX_SERVER = `
const { startSandbox } = await import(${JSON.stringify(SANDBOX)});
const sb = await startSandbox({ port: 0 });
console.log(sb.url);
process.on('SIGTERM', () => sb.close().then(() => process.exit(0)));
`;

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const started = [];
try {
  const hello = await server(HELLO);
  started.push(hello);
  const sandbox = await server(SANDBOX_SERVER);
  started.push(sandbox);
  const base = sandbox.url.replace(/\/$/, '');
  const tokenRes = await fetch(`${base}/api/v3/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: 101 }),
  });
  const { token } = await tokenRes.json();
  const path = '/api/v3/datasources/google_ads/connections';
  const headers = { authorization: `Bearer ${token}` };
  const probe = await fetch(base + path, { headers });
  if (probe.status !== 200) throw new Error(`GET ${path}: ${probe.status}`);

  // Warm both servers' JIT before measuring.
  await load(hello.url, {}, 2);
  await load(base + path, headers, 2);

  console.log(`throughput at ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each (sandbox: ${SANDBOX})`);
  const bare = [];
  const emulated = [];
  const errors = { bare: 0, sandbox: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const b = await load(hello.url);
    const e = await load(base + path, headers);
    bare.push(b);
    emulated.push(e);
    errors.bare += b.errors + b.non2xx;
    errors.sandbox += e.errors + e.non2xx;
    console.log(
      `  round ${round}: bare ${Math.round(b.requests.average)} req/s, sandbox ${Math.round(e.requests.average)} req/s, ratio ${(e.requests.average / b.requests.average).toFixed(2)}`,
    );
  }
  const summary = (runs) => ({
    rps: median(runs.map((r) => r.requests.average)),
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
  });
  const b = summary(bare);
  const e = summary(emulated);
  const line = (label, s, errs) =>
    `  ${label.padEnd(52)} ${String(Math.round(s.rps)).padStart(7)} req/s  latency p50 ${s.p50} ms  p99 ${s.p99} ms  errors ${errs}`;
  console.log('medians:');
  console.log(line('bare fastify hello world', b, errors.bare));
  console.log(line(`sandbox GET ${path}`, e, errors.sandbox));
  const ratio = e.rps / b.rps;
  console.log(
    `  ratio sandbox / bare fastify: ${ratio.toFixed(2)}x  (target >= 0.85x: ${ratio >= 0.85 ? 'met' : 'NOT met'})`,
  );
} finally {
  await Promise.all(started.map((s) => s.stop()));
}
