// @ts-check
// The package as users install it: packed, installed globally into a temporary prefix with npm
// under the Node running this script, then the installed `edp` run as a user runs it.
//
//   node scripts/test-install.mjs pack DIR   pack the package into DIR (building dist/ first when
//                                            it is not current), print the tarball's path
//   node scripts/test-install.mjs TARBALL    install TARBALL, run the installed edp, then import
//                                            edp/sandbox in a project and check its types
//   node scripts/test-install.mjs --git      install from a git URL: a clone of this repository's
//                                            HEAD with the working tree's changes committed on
//                                            top (what a commit of the tree would hold), run it
//
// KEEP_WORK=1 keeps the temporary folder (prefix, clone) for a look after a failure.
//
// npm is the one on PATH, run under this Node (its folder first on PATH). An install must print
// no warning (EBADENGINE or any other `npm warn`): what users install is what CI tested.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const NODE = `Node ${process.version}`;

/**
 * The environment of a child: this Node first on PATH, none of the variables npm sets for a
 * script it runs (they would carry its prefix and settings into the install), no EDP_* setting.
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
function childEnv(extra = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('EDP_') && !/^npm_/i.test(k) && !['NO_COLOR', 'FORCE_COLOR'].includes(k),
    ),
  );
  return {
    ...env,
    PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}

/**
 * Runs a command to its end; throws with its output when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, input?: string }} [options]
 */
function run(command, args, { env = childEnv(), cwd = ROOT, input } = {}) {
  const r = spawnSync(command, args, { env, cwd, input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')}: exit ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** @param {string} path @returns {number} bytes in the files under path */
function du(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + du(join(path, name)), 0);
}

/** @param {number} bytes */
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/** @param {boolean} condition @param {string} what */
function check(condition, what) {
  if (!condition) throw new Error(`${NODE}: ${what}`);
}

/** Packs the package into `dir`; returns the tarball's path. */
function pack(/** @type {string} */ dir) {
  // `npm pack` runs prepack, a full build; the build is reused when current, as in CI after
  // `npm ci` (whose prepare built it).
  run(process.execPath, [join(ROOT, 'scripts/prepare.mjs')], { env: { ...process.env } });
  mkdirSync(dir, { recursive: true });
  // The manifest as `npm pack` packs it (its prepack and postpack, which --ignore-scripts skips).
  run(process.execPath, [join(ROOT, 'scripts/pack-manifest.mjs'), 'strip']);
  let out;
  try {
    out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir]).stdout;
  } finally {
    run(process.execPath, [join(ROOT, 'scripts/pack-manifest.mjs'), 'restore']);
  }
  const [info] = JSON.parse(out);
  console.error(
    `Packed ${info.filename}: ${mb(info.size)} packed, ${mb(info.unpackedSize)} unpacked, ${info.entryCount} files`,
  );
  return join(dir, info.filename);
}

/**
 * The README's line that installs the packed tarball, which must name `tarball`.
 * @param {string} tarball the tarball's file name
 */
function readmeInstallLine(tarball) {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = /^npm install -g \.\/(\S+\.tgz).*$/m.exec(readme);
  if (!line) throw new Error('the README has no `npm install -g ./edp-….tgz` line');
  check(line[1] === tarball, `the README installs ${line[1]}, the pack wrote ${tarball}`);
  // What follows a `#` is the README's comment.
  return line[0].replace(/\s+#.*$/, '');
}

/**
 * Installs `spec` globally into a new prefix under `work`; returns the prefix.
 * @param {string} spec
 * @param {string} work
 */
function install(spec, work) {
  const prefix = join(work, 'prefix');
  const started = Date.now();
  // --allow-scripts=SPEC, for a git URL: npm with allowScripts (11.19 here) lists the `prepare`
  // of a package installed from outside a registry as a script to review, unless allowed by its
  // source (the git URL, not its name); there it is the build. The packed package has no scripts
  // (scripts/pack-manifest.mjs), so a tarball needs no such flag.
  const flags = ['--global', '--prefix', prefix, '--prefer-offline', '--loglevel=warn', `--allow-scripts=${spec}`];
  // A tarball is installed with the README's own line, as pasted, in the tarball's folder (the
  // prefix and settings through npm's environment, which the line leaves alone).
  const r = spec.startsWith('git+')
    ? run('npm', ['install', ...flags, spec], { env: childEnv() })
    : run('bash', ['-c', readmeInstallLine(basename(spec))], {
        cwd: dirname(spec),
        env: childEnv({ npm_config_prefix: prefix, npm_config_prefer_offline: 'true', npm_config_loglevel: 'warn' }),
      });
  const seconds = (Date.now() - started) / 1000;
  const output = `${r.stdout}\n${r.stderr}`;
  const warnings = output.split('\n').filter((line) => /^npm (warn|WARN|ERR)|EBADENGINE/.test(line));
  check(warnings.length === 0, `npm install ${basename(spec)} warned:\n${warnings.join('\n')}`);
  const pkg = join(prefix, 'lib', 'node_modules', 'edp');
  const deps = existsSync(join(pkg, 'node_modules')) ? readdirSync(join(pkg, 'node_modules')) : [];
  console.error(
    `${NODE}: installed ${spec.startsWith('git+') ? 'from a git URL' : basename(spec)} in ${seconds.toFixed(1)} s: ` +
      `${mb(du(prefix))} in the prefix, ${deps.length} dependencies`,
  );
  check(deps.length === 0, `the installed package has dependencies (${deps.join(', ')}): dist/ should carry them`);
  // package.json's `man`: npm links each page where `man` finds it (`man edp-recipes-deploy`).
  for (const page of ['edp.1', 'edp-recipes-deploy.1'])
    check(existsSync(join(prefix, 'share', 'man', 'man1', page)), `the install did not link the man page ${page}`);
  return prefix;
}

/**
 * Runs the installed edp as a user would (the link npm made in the prefix's bin, on PATH).
 * @param {string} prefix
 * @param {string} work
 */
async function exercise(prefix, work) {
  const bin = join(prefix, 'bin');
  const env = childEnv({
    PATH: [dirname(process.execPath), bin, process.env.PATH].join(delimiter),
    HOME: join(work, 'home'),
    XDG_CACHE_HOME: join(work, 'cache'),
    XDG_CONFIG_HOME: join(work, 'config'),
    EDP_CONFIG_DIR: join(work, 'edp-config'),
  });
  /**
   * Runs the installed edp; its stderr must be empty, or match `notes` (a command's own notes).
   * @param {string[]} args
   * @param {{ input?: string, notes?: RegExp }} [options]
   */
  const edp = (args, { input, notes } = {}) => {
    const r = run('edp', args, { env, cwd: work, input });
    check(notes ? notes.test(r.stderr) : r.stderr === '', `edp ${args.join(' ')} wrote to stderr:\n${r.stderr}`);
    return r.stdout;
  };

  check(edp(['--version']).trim() === version, `edp --version is not ${version}`);
  check(edp(['--help']).startsWith('Usage: edp'), 'edp --help');
  check(edp(['auth', '--help']).startsWith('Usage: edp auth'), 'edp auth --help');
  const completion = edp(['completion', 'bash']);
  check(/complete\b.*\bedp\b/.test(completion), 'edp completion bash prints no completion for edp');
  if (spawnSync('bash', ['-c', 'true']).status === 0) run('bash', ['-n'], { input: completion, cwd: work });

  // The sandbox (dist/sandbox.cjs, with the service framework it bundles), then a login and a
  // list against it, and --jq (jq compiled to WebAssembly, shipped in dist/vendor).
  const sandbox = spawn('edp', ['sandbox', '--port', '0'], { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    let err = '';
    sandbox.stderr.on('data', (d) => (err += d));
    const url = await new Promise((resolve_, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${NODE}: edp sandbox did not start in 15 s:\n${out}${err}`)),
        15_000,
      );
      sandbox.stdout.on('data', (d) => {
        out += d;
        const m = /Sandbox listening on (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve_(m[1]);
        }
      });
      sandbox.on('exit', (code) => reject(new Error(`${NODE}: edp sandbox ended (${code}):\n${out}${err}`)));
    });
    edp(['auth', 'login', '--username', 'agency@sandbox.local', '--password-stdin', '--base-url', url], {
      input: 'sandbox',
      notes: /^Logging in to \S+ as agency@sandbox\.local\n✓ Logged in to [^\n]+\n$/,
    });
    const listed = JSON.parse(edp(['workspaces', 'list', '--json', '--base-url', url]));
    check(Array.isArray(listed) && listed.length > 0, 'edp workspaces list --json listed no workspace');
    const ids = edp(['workspaces', 'list', '--jq', '.[].id', '--base-url', url]).trim().split('\n');
    check(ids.length === listed.length, 'edp workspaces list --jq did not print an id per workspace');
    check(err === '', `edp sandbox wrote to stderr:\n${err}`);
  } finally {
    sandbox.kill();
  }
  console.error(`${NODE}: the installed edp ran: --version, --help, completion, sandbox, auth login, workspaces list`);
}

/**
 * `import { startSandbox } from 'edp/sandbox'` in a project of its own, as a test suite uses it:
 * the package installed there (from the tarball; from a git URL, the one installed in the
 * prefix, linked), the import run with a fixture, the clock, a reset; then the types checked by
 * tsc (this repository's, by path) on the vitest example of docs/sandbox.md and on uses the
 * declarations must refuse.
 * @param {string} spec the tarball, or a git URL
 * @param {string} prefix where `install` put the package
 * @param {string} work
 */
function packagedSandbox(spec, prefix, work) {
  const project = join(work, 'project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'suite', private: true, type: 'module' })}\n`);
  if (spec.startsWith('git+'))
    symlinkSync(join(prefix, 'lib', 'node_modules', 'edp'), join(project, 'node_modules', 'edp'));
  else {
    const r = run('npm', ['install', '--prefer-offline', '--loglevel=warn', '--no-save', spec], {
      cwd: project,
      env: childEnv(),
    });
    const warnings = `${r.stdout}\n${r.stderr}`.split('\n').filter((line) => /^npm (warn|WARN|ERR)/.test(line));
    check(warnings.length === 0, `npm install of the tarball into a project warned:\n${warnings.join('\n')}`);
  }
  writeFileSync(
    join(project, 'start.mjs'),
    [
      "import { startSandbox } from 'edp/sandbox';",
      "const fixture = { agency: { username: 'chief@acme.test', password: 'pw' }, workspaces: [{ id: 150, title: 'Acme' }] };",
      "const sandbox = await startSandbox({ fixture, clock: '2026-01-05T09:00:00Z' });",
      "const auth = { authorization: `Basic ${btoa('chief@acme.test:pw')}` };",
      'const read = async () => fetch(`${sandbox.url}/api/v3/workspaces`, { headers: auth });',
      "await fetch(`${sandbox.url}/api/v3/workspaces`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{\"title\": \"Made\"}' });",
      'await sandbox.advance(60);',
      'const moved = (await read()).headers.get("date");',
      'await sandbox.reset();',
      'const answer = await read();',
      'console.log(JSON.stringify({ moved, date: answer.headers.get("date"), titles: (await answer.json()).results.map((w) => w.title) }));',
      'await sandbox.close();',
    ].join('\n'),
  );
  const out = JSON.parse(run(process.execPath, ['start.mjs'], { cwd: project, env: childEnv() }).stdout);
  check(
    JSON.stringify(out) ===
      JSON.stringify({
        moved: 'Mon, 05 Jan 2026 09:01:00 GMT',
        date: 'Mon, 05 Jan 2026 09:00:00 GMT',
        titles: ['Acme'],
      }),
    `import { startSandbox } from 'edp/sandbox' did not start from its fixture, move its clock and reset: ${JSON.stringify(out)}`,
  );

  // The types: the documented vitest example (vitest's own types from this repository) and uses they must refuse.
  cpSync(join(ROOT, 'examples', 'sandbox-vitest.test.ts'), join(project, 'sandbox-vitest.test.ts'));
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));
  writeFileSync(
    join(project, 'refused.ts'),
    [
      "import { startSandbox } from 'edp/sandbox';",
      '// @ts-expect-error: a port is a number',
      "await startSandbox({ port: '4010' });",
      '// @ts-expect-error: a fixture names its agency',
      "await startSandbox({ fixture: { workspaces: [{ title: 'Acme' }] } });",
      'const sandbox = await startSandbox();',
      '// @ts-expect-error: advance takes seconds',
      "await sandbox.advance('1h');",
      'export {};',
    ].join('\n'),
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['*.ts'],
    }),
  );
  run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project });
  console.error(`${NODE}: import { startSandbox } from 'edp/sandbox' ran in a project, and its types checked there`);
}

/** A clone of HEAD with the working tree's changes (tracked and new files) committed on top. */
function cloneWithChanges(/** @type {string} */ work) {
  const clone = join(work, 'edp');
  run('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
  const changed = run('git', ['ls-files', '--modified', '--others', '--exclude-standard', '-z']).stdout.split('\0');
  const deleted = run('git', ['ls-files', '--deleted', '-z']).stdout.split('\0');
  for (const file of changed.filter(Boolean)) {
    if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(clone, file));
  }
  for (const file of deleted.filter(Boolean)) rmSync(join(clone, file), { force: true });
  const git = ['-c', 'user.name=edp', '-c', 'user.email=edp@localhost', '-C', clone];
  run('git', [...git, 'add', '--all']);
  run('git', [...git, 'commit', '--quiet', '--allow-empty', '-m', 'working tree']);
  return clone;
}

const args = process.argv.slice(2);
if (args[0] === 'pack' && args[1]) {
  console.log(pack(resolve(args[1])));
} else if (args.length === 1) {
  const work = mkdtempSync(join(tmpdir(), 'edp-install-'));
  try {
    const spec =
      args[0] === '--git' ? `git+file://${cloneWithChanges(work)}` : resolve(/** @type {string} */ (args[0]));
    const prefix = install(spec, work);
    await exercise(prefix, work);
    packagedSandbox(spec, prefix, work);
  } finally {
    if (!process.env.KEEP_WORK) rmSync(work, { recursive: true, force: true });
  }
} else {
  console.error('usage: node scripts/test-install.mjs pack DIR | TARBALL | --git');
  process.exit(2);
}
