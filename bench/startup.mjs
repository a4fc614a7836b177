// Start-up cost of the CLI, measured in one run: medians of interleaved runs (interleaving
// spreads machine noise evenly over the cases), printed as absolute times and as ratios.
// - `edp --help` and two API commands against a local sandbox, to a bare `node -e 0`:
//   `workspaces list` (Basic) and `-w 101 datasources list` (a cached workspace token), the
//   latter as a logged-in profile (the token cache's HMAC of its password) and with
//   EDP_USERNAME/EDP_PASSWORD (scrypt of a password stored nowhere, ~40 ms by design: no target);
// - runs that issue and save a token, to the cached run: from an empty config folder, and from
//   one that already caches a token of another workspace;
// - the `recipes deploy` module: a local usage error that loads it, minus one that does not.
// NODE_EXTRA_CA_CERTS is removed from the children's environment: where it is set, it adds
// ~70 ms to every Node start and flatters every ratio to `node -e 0`.
// `--node PATH` measures the CLI (and `node -e 0`) under another Node binary; the sandbox stays
// in this process.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const nodeAt = process.argv.indexOf('--node');
const NODE = nodeAt >= 0 && process.argv[nodeAt + 1] ? process.argv[nodeAt + 1] : process.execPath;
const sandbox = await startSandbox({ port: 0 });
const { NODE_EXTRA_CA_CERTS: _ignored, ...parentEnv } = process.env;
const warmConfig = mkdtempSync(join(tmpdir(), 'edp-bench-'));
const env = {
  ...parentEnv,
  EDP_BASE_URL: sandbox.url,
  EDP_USERNAME: 'agency@sandbox.local',
  EDP_PASSWORD: 'sandbox',
  EDP_CONFIG_DIR: warmConfig,
};

/** The children's environment: `env` with `extra` over it; a key set to undefined is left out. */
function childEnv(extra) {
  return Object.fromEntries(Object.entries({ ...env, ...extra }).filter(([, v]) => v !== undefined));
}

// The sandbox answers from this process, so the CLI runs asynchronously while timing covers
// the child's whole life.
function time(args, extraEnv = {}, expectCode = 0, input = undefined) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const stdin = input === undefined ? 'ignore' : 'pipe';
    const child = spawn(NODE, args, { env: childEnv(extraEnv), stdio: [stdin, 'ignore', 'pipe'] });
    if (input !== undefined) child.stdin.end(input);
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== expectCode)
        return reject(new Error(`${args.join(' ')} exited ${code}, expected ${expectCode}\n${err}`));
      resolve(Number(process.hrtime.bigint() - t) / 1e6);
    });
  });
}

/**
 * Each run of a token-issuing case starts from a copy of `template`: an empty config folder (the
 * first run on a machine, which also creates the salt of the token cache), or one that already
 * caches a token of another workspace (the common case: a token expired, or a new workspace).
 */
function issuingRun(args, template) {
  const dir = mkdtempSync(join(tmpdir(), 'edp-bench-fresh-'));
  if (template) cpSync(template, dir, { recursive: true });
  return time(args, { EDP_CONFIG_DIR: dir }).finally(() => rmSync(dir, { recursive: true, force: true }));
}
const otherWorkspace = mkdtempSync(join(tmpdir(), 'edp-bench-other-'));
await time(['bin/edp.js', '-w', '102', 'datasources', 'list', '--json'], { EDP_CONFIG_DIR: otherWorkspace });

// A logged-in profile: its credentials from the config file, none from the environment.
const profileConfig = mkdtempSync(join(tmpdir(), 'edp-bench-profile-'));
const asProfile = { EDP_CONFIG_DIR: profileConfig, EDP_USERNAME: undefined, EDP_PASSWORD: undefined };
await time(
  ['bin/edp.js', 'auth', 'login', '--username', 'agency@sandbox.local', '--password-stdin'],
  asProfile,
  0,
  'sandbox',
);

const bearerList = ['bin/edp.js', '-w', '101', 'datasources', 'list', '--json'];
const cases = {
  'node -e 0': () => time(['-e', '0']),
  'edp --help': () => time(['bin/edp.js', '--help']),
  'edp workspaces list --json': () => time(['bin/edp.js', 'workspaces', 'list', '--json']),
  'edp -w 101 datasources list --json': () => time(bearerList, asProfile),
  'same, credentials from the environment': () => time(bearerList),
  'same, issuing and saving a token': () => issuingRun(bearerList),
  'same, issuing, config already in use': () => issuingRun(bearerList, otherWorkspace),
  'edp workspaces list --jq .': () => time(['bin/edp.js', 'workspaces', 'list', '--jq', '.']),
  'usage error in recipes get': () => time(['bin/edp.js', '-w', '101', 'recipes', 'get', 'x'], {}, 2),
  'usage error in recipes deploy': () =>
    time(['bin/edp.js', 'recipes', 'deploy', '-w', '101', '--concurrency', 'x'], {}, 2),
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const run of Object.values(cases)) await run(); // warm the file cache, and cache the token
for (let i = 0; i < RUNS; i++) {
  for (const [name, run] of Object.entries(cases)) samples[name].push(await run());
}
await sandbox.close();
rmSync(warmConfig, { recursive: true, force: true });
rmSync(otherWorkspace, { recursive: true, force: true });
rmSync(profileConfig, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const m = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
const verdict = (ok) => (ok ? 'met' : 'NOT met');
const ms = (x) => `${x.toFixed(1).padStart(6)} ms`;
const nodeVersion = spawnSync(NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
console.log(`startup on Node ${nodeVersion}, median of ${RUNS} interleaved runs`);
// WebAssembly is kept at its baseline tier per Node major (the launcher's --liftoff-only on
// the majors of LIFTOFF_ONLY_MAJORS, src/http/baseline-wasm.ts on those of BASELINE_FLAGS): on a
// major in neither, V8 tiers up as it decides and a run that sends a few requests may wait for
// that at exit. Said here so that such figures are read as such.
const major = Number(nodeVersion.split('.')[0]);
const launcherMajors = /const LIFTOFF_ONLY_MAJORS = \[([\d, ]*)\]/.exec(readFileSync('bin/edp.js', 'utf8'));
if (!launcherMajors) throw new Error('bin/edp.js: LIFTOFF_ONLY_MAJORS not found');
const liftoffOnly = launcherMajors[1].split(',').map(Number);
const tabled = [...readFileSync('src/http/baseline-wasm.ts', 'utf8').matchAll(/^ {2}(\d+): \{ set:/gm)].map((m) =>
  Number(m[1]),
);
if (!liftoffOnly.includes(major) && !tabled.includes(major))
  console.log(
    `  note: Node ${major} is in neither LIFTOFF_ONLY_MAJORS (${liftoffOnly.join(', ')}, bin/edp.js) nor BASELINE_FLAGS (${tabled.join(', ')}): WebAssembly tiers up as V8 decides`,
  );
console.log(`  ${'node -e 0'.padEnd(36)} ${ms(m['node -e 0'])}`);
for (const [name, target] of [
  ['edp --help', 1.2],
  ['edp workspaces list --json', 2.2],
  ['edp -w 101 datasources list --json', 2.2],
]) {
  const ratio = m[name] / m['node -e 0'];
  console.log(
    `  ${name.padEnd(36)} ${ms(m[name])}  ${ratio.toFixed(2)}x node -e 0  (target <= ${target}x: ${verdict(ratio <= target)})`,
  );
}
const fromEnv = m['same, credentials from the environment'];
console.log(
  `  ${'same, credentials from the environment'.padEnd(36)} ${ms(fromEnv)}  ${(fromEnv / m['node -e 0']).toFixed(2)}x node -e 0  (the scrypt digest of a password stored nowhere, by design: no target)`,
);
// The issuing runs take their credentials from the environment: compared with the cached run
// that does too, they show what issuing and saving a token cost.
for (const [name, label] of [
  ['same, issuing and saving a token', 'same, issuing a token, new config'],
  ['same, issuing, config already in use', 'same, issuing a token, config in use'],
]) {
  const ratio = m[name] / fromEnv;
  console.log(
    `  ${label.padEnd(36)} ${ms(m[name])}  ${ratio.toFixed(2)}x the cached run  (target <= 1.1x: ${verdict(ratio <= 1.1)})`,
  );
}
const jqCost = m['edp workspaces list --jq .'] - m['edp workspaces list --json'];
console.log(
  `  ${'--jq (jq-web load and one run)'.padEnd(36)} ${jqCost >= 0 ? '+' : ''}${jqCost.toFixed(1)} ms  (workspaces list --jq . ${m['edp workspaces list --jq .'].toFixed(1)} ms vs --json ${m['edp workspaces list --json'].toFixed(1)} ms; paid only with --jq)`,
);
const chunk = m['usage error in recipes deploy'] - m['usage error in recipes get'];
console.log(
  `  ${'recipes deploy module import'.padEnd(36)} ${chunk >= 0 ? '+' : ''}${chunk.toFixed(1)} ms  (deploy usage error ${m['usage error in recipes deploy'].toFixed(1)} ms vs get ${m['usage error in recipes get'].toFixed(1)} ms; target <= +20 ms: ${verdict(chunk <= 20)})`,
);
