// Paging: `edp accounts list --json` over a connection of 10,000 accounts (sandbox --scale 100,
// --latency 20) against a sequential client that follows `next` one page at a time, the way
// `gh api --paginate` and most scripts page. Prints the ratio, and the ideal: the round trips
// needed at the client's page concurrency, for the default concurrency and two higher ones
// (EDP_PAGE_CONCURRENCY). Then the peak memory of `--ndjson` for 10,000 and 100,000 accounts,
// which must not grow with the item count. Measured in one run; no assertions.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const LATENCY_MS = 20;
const PAGE_SIZE = 100; // the v3.1 accounts maximum
const DEFAULT_CONCURRENCY = 6; // DEFAULT_PAGE_CONCURRENCY in src/api/paginate.ts
const CONCURRENCIES = [4, DEFAULT_CONCURRENCY, 8];
const USERNAME = 'agency@sandbox.local';
const PASSWORD = 'sandbox';
const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

async function json(url, init = {}) {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The bulk connection of workspace 101: the one holding `count` accounts. */
async function bulkConnection(sandbox, count) {
  const { token } = await json(`${sandbox.url}/api/v3/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: 101 }),
  });
  const page = await json(`${sandbox.url}/api/v3/datasources/google_ads/connections`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const c = page.results.find((x) => x.accounts_number === count);
  if (!c) throw new Error(`no connection with ${count} accounts`);
  return c.id;
}

/** Token, then page 1, then `next` until null: one request in flight at a time. */
async function sequential(sandbox, connectionId) {
  const started = performance.now();
  const { token } = await json(`${sandbox.url}/api/v3/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: 101 }),
  });
  let url = `${sandbox.url}/api/v3.1/connections/${connectionId}/accounts/?page_size=${PAGE_SIZE}`;
  let items = 0;
  let requests = 1;
  while (url) {
    const page = await json(url, { headers: { authorization: `Bearer ${token}` } });
    items += page.results.length;
    requests++;
    url = page.next;
  }
  return { ms: performance.now() - started, items, requests };
}

// Reports the child's peak resident set size on its way out (on stderr, as the last line).
const REPORT_MAX_RSS = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss_kb='+process.resourceUsage().maxRSS+'\\n'))`;

/** Runs `edp args…` as a child process; counts stdout lines or bytes as they stream past. */
function edp(sandbox, args, concurrency = DEFAULT_CONCURRENCY) {
  const env = {
    ...process.env,
    EDP_PAGE_CONCURRENCY: concurrency === DEFAULT_CONCURRENCY ? undefined : String(concurrency),
    EDP_BASE_URL: sandbox.url,
    EDP_USERNAME: USERNAME,
    EDP_PASSWORD: PASSWORD,
    EDP_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'edp-bench-')),
    EDP_WORKSPACE: '101',
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', REPORT_MAX_RSS, 'bin/edp.js', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let tail = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      tail = (tail + chunk.toString('utf8', Math.max(0, chunk.length - 64))).slice(-64);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`edp ${args.join(' ')} exited ${code}: ${stderr}`));
      const rss = /maxrss_kb=(\d+)/.exec(stderr);
      resolve({ ms, lines, tail, maxRssMb: rss ? Number(rss[1]) / 1024 : NaN });
    });
  });
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)}s`;

// ---------------------------------------------------------------- speed, 10,000 accounts
{
  const sandbox = await startSandbox({ port: 0, scale: 100, latencyMs: LATENCY_MS });
  try {
    const connectionId = await bulkConnection(sandbox, 10_000);
    await sequential(sandbox, connectionId); // warm up the sandbox and the file cache
    const seq = await sequential(sandbox, connectionId);
    const list = ['accounts', 'list', '--connection', String(connectionId), '--json'];
    const pages = Math.ceil(seq.items / PAGE_SIZE);
    const perTrip = seq.ms / seq.requests;
    // What a run costs besides paging (process start, module loading, token, first page, exit),
    // from the fastest of three one-page runs.
    const onePage = [];
    for (let i = 0; i < 3; i++) onePage.push((await edp(sandbox, [...list, '--limit', '1'])).ms);
    const fixedMs = Math.min(...onePage) - 2 * perTrip;
    console.log(`paging, ${seq.items} accounts in ${pages} pages of ${PAGE_SIZE}, --latency ${LATENCY_MS} ms`);
    console.log(
      `  sequential ${fmt(seq.ms)} (${seq.requests} round trips of ${perTrip.toFixed(1)} ms, in-process); edp start-up and exit ${fmt(fixedMs)}`,
    );
    for (const concurrency of CONCURRENCIES) {
      const tool = await edp(sandbox, list, concurrency);
      // `--json` prints one array: items are not countable by line, but a complete array ends in "]".
      if (!tool.tail.trimEnd().endsWith(']')) throw new Error('edp did not print a complete JSON array');
      // Token, the first page (it tells the count), then the other pages `concurrency` at a time.
      const idealTrips = 2 + Math.ceil((pages - 1) / concurrency);
      const idealMs = idealTrips * perTrip;
      const pagingMs = tool.ms - fixedMs;
      const speedup = seq.ms / tool.ms;
      const ofIdeal = pagingMs / idealMs;
      const label = `concurrency ${concurrency}${concurrency === DEFAULT_CONCURRENCY ? ' (default)' : ''}`;
      console.log(
        `  ${label}: sequential ${fmt(seq.ms)}, edp ${fmt(tool.ms)}: ${speedup.toFixed(1)}x faster (target >= 3x: ${speedup >= 3 ? 'met' : 'NOT met'}); ` +
          `ideal ${idealTrips} round trips = ${fmt(idealMs)}, edp paged in ${fmt(pagingMs)} = ${ofIdeal.toFixed(2)}x the ideal (target <= 1.5x: ${ofIdeal <= 1.5 ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await sandbox.close();
  }
}

// ---------------------------------------------------------------- memory, --ndjson
const memory = [];
for (const scale of [100, 1000]) {
  const sandbox = await startSandbox({ port: 0, scale, latencyMs: LATENCY_MS });
  try {
    const count = scale * 100;
    const connectionId = await bulkConnection(sandbox, count);
    const run = await edp(sandbox, ['accounts', 'list', '--connection', String(connectionId), '--ndjson']);
    if (run.lines !== count) throw new Error(`--ndjson printed ${run.lines} lines, expected ${count}`);
    memory.push({ count, ...run });
  } finally {
    await sandbox.close();
  }
}
console.log('peak memory of `edp accounts list --ndjson` (max RSS of the process)');
for (const m of memory)
  console.log(`  ${String(m.count).padStart(7)} items: ${m.maxRssMb.toFixed(1)} MB in ${fmt(m.ms)}`);
const [small, large] = memory;
const growth = large.maxRssMb / small.maxRssMb;
console.log(
  `  10x the items, ${growth.toFixed(2)}x the memory (target: does not grow with the item count: ${growth <= 1.25 ? 'met' : 'NOT met'})`,
);
