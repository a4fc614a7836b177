// Sandbox throughput: GET requests per second at 50 connections, as a ratio to a bare fastify
// "hello world" measured in the same run. Each server runs in its own process (one core for the
// server, one for the load generator); autocannon drives them the same way, in alternating
// rounds so that all see the same machine. The sandbox request is a workspace-scoped list with
// a Bearer token: authentication, the store, the paginated envelope and the JSON reply, which is
// what clients mostly do.
//
// Two more servers show what fastify alone costs for that answer, with the sandbox's own reply
// captured once and serialized each time:
// - the floor: one route at the request's path, answering the reply with the `x-im-trace-id`
//   header every answer carries (docs/contract-rules.md) and nothing else, the least a fastify server does
//   for this answer: a sandbox answering from a fastify route cannot be expected to beat it.
// - the skeleton: the sandbox's routes (from its OpenAPI document) with handlers that do
//   nothing, and hooks where the sandbox has them (a trace id set on request, a hook on send).
// What separates the sandbox from the skeleton is the sandbox's own work; what separates the
// skeleton from the floor is fastify's, for a route table and hooks.
//
// Prints each round, then the medians (req/s and latency) and the ratios of the medians.
// Measured in one run; no assertions.
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

/** The floor: one route answering `reply` with a trace id, no hooks, the default serializer. */
const floorServer = (route, reply) => `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
const reply = ${JSON.stringify(reply)};
let n = 0;
app.get(${JSON.stringify(route)}, async (request, res) => {
  res.header('x-im-trace-id', 'a1b2c3d4' + (++n).toString(16).padStart(8, '0'));
  return reply;
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('http://127.0.0.1:' + app.server.address().port + '/');
`;

/**
 * The skeleton: the sandbox's routes (every method and path of its OpenAPI document, `{name}`
 * as `:name`) and hooks, answering `route` with `reply` as is and any other route with `{}`.
 */
const skeletonServer = (sandboxUrl, route, reply) => `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
const document = await (await fetch(${JSON.stringify(`${sandboxUrl}/_sandbox/openapi.json`)})).json();
const reply = ${JSON.stringify(reply)};
let n = 0;
app.addHook('onRequest', (request, res, done) => {
  res.header('x-im-trace-id', 'a1b2c3d4' + (++n).toString(16).padStart(8, '0'));
  done();
});
app.addHook('onSend', (request, res, payload, done) => done(null, payload));
app.setReplySerializer((payload) => JSON.stringify(payload));
for (const [template, item] of Object.entries(document.paths)) {
  const url = template.replace(/[{]([^}]+)[}]/g, ':$1');
  for (const method of ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m])) {
    const answer = url === ${JSON.stringify(route)} && method === 'get' ? reply : {};
    app.route({ method: method.toUpperCase(), url, handler: async () => answer });
  }
}
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('http://127.0.0.1:' + app.server.address().port + '/');
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

  const route = '/api/v3/datasources/:datasource_name/connections';
  const captured = await probe.json();
  const floor = await server(floorServer(route, captured));
  started.push(floor);
  const skeleton = await server(skeletonServer(base, route, captured));
  started.push(skeleton);
  // The floor and the skeleton get the requests the sandbox got before the load (a token, then
  // the probe): which requests a fastify process serves first shapes the code V8 optimizes,
  // and measurably so (a skeleton loaded cold spent ~20% more CPU per request on this
  // project's machine).
  const floorBase = floor.url.replace(/\/$/, '');
  const skeletonBase = skeleton.url.replace(/\/$/, '');
  for (const b of [floorBase, skeletonBase]) {
    await (
      await fetch(`${b}/api/v3/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).text();
    await (await fetch(b + path, { headers })).text();
  }
  const targets = [
    { label: 'bare fastify hello world', url: hello.url, headers: {} },
    { label: 'fastify floor: one route, reply, trace id', url: floorBase + path, headers },
    { label: 'fastify skeleton: sandbox routes, hooks, reply', url: skeletonBase + path, headers },
    { label: `sandbox GET ${path}`, url: base + path, headers },
  ];
  // Warm the servers' JIT before measuring.
  for (const t of targets) await load(t.url, t.headers, 2);

  console.log(`throughput at ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each (sandbox: ${SANDBOX})`);
  const runs = targets.map(() => []);
  const errors = targets.map(() => 0);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const r = await load(t.url, t.headers);
      runs[i].push(r);
      errors[i] += r.errors + r.non2xx;
    }
    const [b, f, k, e] = runs.map((r) => r.at(-1).requests.average);
    console.log(
      `  round ${round}: bare ${Math.round(b)} req/s, floor ${Math.round(f)} req/s, skeleton ${Math.round(k)} req/s, sandbox ${Math.round(e)} req/s, sandbox/bare ${(e / b).toFixed(2)}`,
    );
  }
  const summary = (rs) => ({
    rps: median(rs.map((r) => r.requests.average)),
    p50: median(rs.map((r) => r.latency.p50)),
    p99: median(rs.map((r) => r.latency.p99)),
  });
  const [b, f, k, e] = runs.map(summary);
  const line = (label, s, errs) =>
    `  ${label.padEnd(52)} ${String(Math.round(s.rps)).padStart(7)} req/s  ${(1e6 / s.rps).toFixed(1).padStart(5)} µs/req  latency p50 ${s.p50} ms  p99 ${s.p99} ms  errors ${errs}`;
  console.log('medians:');
  for (const [i, s] of [b, f, k, e].entries()) console.log(line(targets[i].label, s, errors[i]));
  const ratio = e.rps / b.rps;
  console.log(
    `  ratio sandbox / bare fastify: ${ratio.toFixed(2)}x  (target >= 0.85x: ${ratio >= 0.85 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  ratio floor / bare fastify: ${(f.rps / b.rps).toFixed(2)}x  (the least a fastify route does for this answer)`,
  );
  console.log(
    `  ratio skeleton / bare fastify: ${(k.rps / b.rps).toFixed(2)}x  (fastify's cost with the sandbox's routes and hooks)`,
  );
  console.log(`  ratio sandbox / skeleton: ${(e.rps / k.rps).toFixed(2)}x  (the sandbox's own work)`);
} finally {
  await Promise.all(started.map((s) => s.stop()));
}
