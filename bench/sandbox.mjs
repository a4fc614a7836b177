// Sandbox throughput: GET requests per second at 50 connections, as a ratio to a bare fastify
// "hello world" measured in the same run. Each server runs in its own process (one core for the
// server, one for the load generator); autocannon drives both the same way. The sandbox request
// is a workspace-scoped list with a Bearer token: authentication, the store, the paginated
// envelope and lossless JSON, which is what clients mostly do. Measured in one run; no assertions.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const USERNAME = 'agency@sandbox.local';
const PASSWORD = 'sandbox';
const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

/** Starts `args` as a node process and resolves with its URL, read from the first stdout line holding one. */
async function server(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s]+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening`)));
  });
  return { url, async stop() { child.kill('SIGTERM'); await once(child, 'exit'); } };
}

function load(url, headers = {}) {
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
}

const HELLO = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('http://127.0.0.1:' + app.server.address().port + '/');
`;

const hello = await server(['--input-type=module', '-e', HELLO]);
const sandbox = await server(['bin/edp.js', 'sandbox', '--port', '0']);
try {
  const base = sandbox.url.replace(/\/$/, '');
  const tokenRes = await fetch(`${base}/api/v3/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body: JSON.stringify({ workspace_id: 101 }) });
  const { token } = await tokenRes.json();
  const path = '/api/v3/datasources/google_ads/connections';
  const probe = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  if (probe.status !== 200) throw new Error(`GET ${path}: ${probe.status}`);

  await load(hello.url); // warm both servers' JIT before measuring
  await load(base + path, { authorization: `Bearer ${token}` });
  const bare = await load(hello.url);
  const emulated = await load(base + path, { authorization: `Bearer ${token}` });
  const rps = (r) => r.requests.average;
  const line = (label, r) => `  ${label.padEnd(38)} ${String(Math.round(rps(r))).padStart(7)} req/s  p99 ${r.latency.p99} ms  errors ${r.errors + r.non2xx}`;
  console.log(`throughput at ${CONNECTIONS} connections, ${SECONDS} s each`);
  console.log(line('bare fastify hello world', bare));
  console.log(line(`sandbox GET ${path}`, emulated));
  const ratio = rps(emulated) / rps(bare);
  console.log(`  ratio sandbox / bare fastify:          ${ratio.toFixed(2)}x  (target >= 0.85x: ${ratio >= 0.85 ? 'met' : 'NOT met'})`);
} finally {
  await Promise.all([hello.stop(), sandbox.stop()]);
}
