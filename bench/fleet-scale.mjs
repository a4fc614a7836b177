// Fleet as code at scale: `edp plan` and `edp apply` of one fleet file over 20, 100 and 500
// workspaces (or the sizes given: `node bench/fleet-scale.mjs 20 100`) on a sandbox with
// --latency 20, each against its ideal, with the process's peak memory.
//
// The ideal of a run over N workspaces at concurrency C is bounded below twice: by the same
// run with no latency (the work itself: parsing, planning, the sandbox's own time, the builds'
// waits), and by the chains of dependent requests times the latency: the agency's once (the
// workspaces, the templates, the roles), and one workspace's once per round of C workspaces:
//   ideal(N) = max(run(N, latency 0), (agency + ceil(N / C) * workspace) * latency)
// where one workspace's chain is what a second workspace adds at concurrency 1, and the
// agency's is the rest of a run over one workspace; each is measured at a latency of 200 ms
// (ten times the bench's, so that the noise of a process's start does not count as a
// request), the median of three, in the same run. Peak memory is the process's maximum
// resident set (GNU time's %M). Measured in one run; no assertions.
//
// Then the fleet file's other kinds: `edp plan` of a file with an extracts, a destinations, an
// accounts and a tables entry over the same sizes, each workspace already as the file says (an
// apply made it so, with no latency), so that the plan reads every kind and finds nothing to
// do: against its ideal chain as above (measured the same way, from one workspace and from two),
// with the peak memory and what each workspace adds to it (the growth from the smallest size);
// the floor and the measure are each the median of three runs.
// `--kinds` measures only these.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startSandbox } from '../dist/sandbox.js';
import { benchDir, benchEnv, fleetFile as writeFleetFile, growFleet, json, kindsFile } from './lib/fleet.mjs';

const LATENCY_MS = 20;
const CHAIN_LATENCY_MS = 200;
const BUILD_SECONDS = 0.2;
// The `auto` default's caps (src/config/defaults.ts): a plan only reads, an apply changes things.
const READ_CONCURRENCY = 32;
const CHANGE_CONCURRENCY = 16;
const SIZES = process.argv.slice(2).map(Number).filter(Boolean);
const KINDS_ONLY = process.argv.includes('--kinds');
const sizes = SIZES.length > 0 ? SIZES : [20, 100, 500];
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const sandbox = await startSandbox({ port: 0, latencyMs: 0, buildSeconds: BUILD_SECONDS });
const latency = (ms) =>
  json(`${sandbox.url}/_sandbox/faults`, { method: 'PATCH', body: JSON.stringify({ latency_ms: ms }) });

// The demo's three workspaces, and as many more as the largest size, equipped like them.
const workspaces = await growFleet(sandbox, Math.max(...sizes));

const dir = benchDir('fleet-scale');
const env = benchEnv(sandbox, dir);
const fleetFile = (ws) => writeFleetFile(dir, ws);

/** One command as a separate process: wall time and peak resident memory (MiB). */
function edp(args, okCodes = [0]) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const argv = GNU_TIME
      ? [GNU_TIME, ['-f', 'edp-maxrss-kb %M', process.execPath, 'bin/edp.js', ...args]]
      : [process.execPath, ['bin/edp.js', ...args]];
    const child = spawn(argv[0], argv[1], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (!okCodes.includes(code)) return reject(new Error(`edp ${args.join(' ')} exited ${code}\n${err}`));
      const kb = /edp-maxrss-kb (\d+)/.exec(err)?.[1];
      resolve({ ms, mib: kb ? Number(kb) / 1024 : NaN });
    });
  });
}

/** Back to no recipes, endpoints, roles or extractions, so that each apply starts from scratch. */
function reset() {
  const s = sandbox.store.state;
  s.recipes = [];
  s.extracts = [];
  s.webhook_endpoints = [];
  s.roles = (s.roles ?? []).filter((r) => r.title !== 'Media Buyer');
}

const concurrencyFlag = (c) => (c === undefined ? [] : ['--concurrency', String(c)]);
const plan = (file, c) => edp(['plan', '-f', file, '--detailed-exitcode', ...concurrencyFlag(c)], [10]);
const apply = (file, c) =>
  edp([
    'apply',
    '-f',
    file,
    '--yes',
    '--poll-interval',
    '100ms',
    '--secrets-file',
    `${dir}/secrets.json`,
    ...concurrencyFlag(c),
  ]);

/** The rows of the fleet file's other kinds (see the top): plan, nothing to do, every kind read. */
async function kindsRows() {
  const file = (ws) => kindsFile(dir, ws);
  await latency(0);
  // Every workspace made as the file says: the extracts, their table, the connection.
  // (The table is made by the extracts: a second apply sets its fields.)
  for (let i = 0; i < 2; i++) await edp(['apply', '-f', file(workspaces.slice(0, Math.max(...sizes))), '--yes']);
  const planKinds = (f, c) => edp(['plan', '-f', f, '--detailed-exitcode', ...concurrencyFlag(c)]);
  const chainOf = async (f, concurrency) => {
    const chains = [];
    for (let i = 0; i < 3; i++) {
      await latency(0);
      const fast = await planKinds(f, concurrency);
      await latency(CHAIN_LATENCY_MS);
      const slow = await planKinds(f, concurrency);
      chains.push((slow.ms - fast.ms) / CHAIN_LATENCY_MS);
    }
    return chains.sort((a, b) => a - b)[1];
  };
  const one = await chainOf(file([101]), 1);
  const workspace = Math.max(1, Math.round((await chainOf(file([101, 102]), 1)) - one));
  const chain = { agency: Math.max(0, Math.round(one) - workspace), workspace };
  console.log(
    `fleet plan of extracts, destinations, accounts and tables (nothing to do); requests in a row: ${chain.agency} for the agency + ${chain.workspace} per workspace`,
  );
  console.log(
    `  ${'run'.padEnd(30)} ${'measured'.padStart(9)} ${'no latency'.padStart(11)} ${'latency bound'.padStart(14)} ${'ratio'.padStart(6)} ${'peak MiB'.padStart(9)} ${'KiB/ws'.padStart(7)}`,
  );
  let first;
  for (const n of sizes) {
    const f = file(workspaces.slice(0, n));
    // The median of three runs each, alternated: one run's floor or measure swings by a tenth or
    // more on a machine the sandbox shares.
    const floors = [];
    const runs = [];
    for (let i = 0; i < 3; i++) {
      await latency(0);
      floors.push(await planKinds(f));
      await latency(LATENCY_MS);
      runs.push(await planKinds(f));
    }
    const median = (xs) => xs.sort((a, b) => a.ms - b.ms)[1];
    const floor = median(floors);
    const measured = median(runs);
    const bound = (chain.agency + Math.ceil(n / READ_CONCURRENCY) * chain.workspace) * LATENCY_MS;
    const ideal = Math.max(floor.ms, bound);
    first ??= { n, mib: measured.mib };
    const perWorkspace = n > first.n ? ((measured.mib - first.mib) * 1024) / (n - first.n) : NaN;
    console.log(
      `  ${`plan, every kind, ${n} workspaces`.padEnd(30)} ${`${Math.round(measured.ms)} ms`.padStart(9)} ${`${Math.round(floor.ms)} ms`.padStart(11)} ${`${Math.round(bound)} ms`.padStart(14)} ${`${(measured.ms / ideal).toFixed(2)}x`.padStart(6)} ${measured.mib.toFixed(0).padStart(9)} ${(Number.isNaN(perWorkspace) ? '' : perWorkspace.toFixed(0)).padStart(7)}`,
    );
  }
}

try {
  if (KINDS_ONLY) {
    await kindsRows();
    process.exit(0);
  }
  const oneFile = fleetFile([101]);
  const two = fleetFile([101, 102]);
  // Requests in a row of a run over `file`, at `concurrency`: the median of three.
  const chainOf = async (run, file, concurrency) => {
    const chains = [];
    for (let i = 0; i < 3; i++) {
      await latency(0);
      reset();
      const fast = await run(file, concurrency);
      await latency(CHAIN_LATENCY_MS);
      reset();
      const slow = await run(file, concurrency);
      chains.push((slow.ms - fast.ms) / CHAIN_LATENCY_MS);
    }
    return chains.sort((a, b) => a - b)[1];
  };
  const chains = async (run) => {
    const one = await chainOf(run, oneFile, 1);
    const workspace = Math.max(1, Math.round((await chainOf(run, two, 1)) - one));
    return { agency: Math.max(0, Math.round(one) - workspace), workspace };
  };
  const planChain = await chains(plan);
  const applyChain = await chains(apply);

  console.log(
    `fleet plan and apply at scale on Node ${process.versions.node}; sandbox latency ${LATENCY_MS} ms, builds ${BUILD_SECONDS} s per state, concurrency ${READ_CONCURRENCY} for a plan, ${CHANGE_CONCURRENCY} for an apply (auto)`,
  );
  console.log(
    `  requests in a row: plan ${planChain.agency} for the agency + ${planChain.workspace} per workspace; apply ${applyChain.agency} + ${applyChain.workspace} (its waits included)`,
  );
  console.log(
    `  ${'run'.padEnd(22)} ${'measured'.padStart(9)} ${'no latency'.padStart(11)} ${'latency bound'.padStart(14)} ${'ratio'.padStart(6)} ${'peak MiB'.padStart(9)}`,
  );
  for (const n of sizes) {
    const file = fleetFile(workspaces.slice(0, n));
    for (const [label, run, chain, concurrency] of [
      ['plan', plan, planChain, READ_CONCURRENCY],
      ['apply', apply, applyChain, CHANGE_CONCURRENCY],
    ]) {
      const rounds = Math.ceil(n / concurrency);
      await latency(0);
      reset();
      const floor = await run(file);
      await latency(LATENCY_MS);
      reset();
      const measured = await run(file);
      const bound = (chain.agency + rounds * chain.workspace) * LATENCY_MS;
      const ideal = Math.max(floor.ms, bound);
      console.log(
        `  ${`${label}, ${n} workspaces`.padEnd(22)} ${`${Math.round(measured.ms)} ms`.padStart(9)} ${`${Math.round(floor.ms)} ms`.padStart(11)} ${`${Math.round(bound)} ms`.padStart(14)} ${`${(measured.ms / ideal).toFixed(2)}x`.padStart(6)} ${measured.mib.toFixed(0).padStart(9)}`,
      );
    }
  }
  reset();
  await kindsRows();
} finally {
  await sandbox.close();
}
