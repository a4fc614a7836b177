// @ts-check
// Every change the build makes to its dependencies, in one place: the stand-ins that replace
// modules the bundled libraries load for features edp never uses, the text patch of undici's
// HTTP/1 client, and the checks of what each of them rests on. A stand-in is only right while
// the dependency uses the replaced module the way it did when the stand-in was written, so the
// build reads the source of every file whose import a stand-in took and fails, saying what
// changed, when that file uses the module in any other way. Measured in docs/benchmarks.md.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';

/**
 * What a dependency may do with a module a stand-in replaces: call it (`call`), read these of
 * its exports (`members`; a destructured import or `require(…).name` reads them too), and only
 * inside these methods of its own (`within`, the names of the methods).
 * @typedef {{ call?: boolean; members?: string[]; within?: string[] }} Supports
 */

/**
 * @typedef {object} StandIn
 * @property {string} module the import replaced (as the dependency writes it)
 * @property {RegExp} importer the files whose import of it is replaced
 * @property {string} stub the stand-in's CommonJS source
 * @property {Supports} supports what the stand-in supports: the dependency may use no more
 * @property {{ pattern: RegExp; feature: string }} [edpNever] for a stand-in in undici, what
 *   edp's own code that reaches undici (undiciReachers) must never write, outside comments, for
 *   the stand-in to hold: the options or values that would have undici use the feature the
 *   replaced module serves
 */

/** @type {StandIn[]} */
export const STAND_INS = [
  // undici's HTTP/2 client, which it sets up only for a connection that speaks h2: one that
  // negotiated it (ALPN), which undici offers only with `allowH2`, or one told to with `useH2c`
  // (or by a connector of its own, which would set `ALPNProtocols`). edp's code that reaches
  // undici names none of them (`edpNever`, checked at build).
  {
    module: './client-h2.js',
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    stub: "module.exports = () => { throw new Error('HTTP/2 is not supported'); };",
    supports: { call: true },
    edpNever: { pattern: /\b(?:allowH2|useH2c|ALPNProtocols)\b/, feature: 'HTTP/2' },
  },
  // undici's fetch body encoder, which its HTTP/1 client needs for FormData request bodies only
  // (a body whose Symbol.toStringTag is 'FormData'); edp sends JSON text and names no FormData
  // in its code that reaches undici (`edpNever`, checked at build). A multipart body written as
  // text needs no encoder.
  {
    module: '../web/fetch/body.js',
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    stub: "module.exports = { extractBody() { throw new Error('FormData bodies are not supported'); } };",
    supports: { members: ['extractBody'] },
    edpNever: { pattern: /\bFormData\b/, feature: 'FormData request bodies' },
  },
  // undici checks its own invariants with assert(value) and nothing else of node:assert: the
  // stand-in throws the same ERR_ASSERTION error.
  {
    module: 'node:assert',
    importer: /undici[\\/]lib[\\/]/,
    stub: "module.exports = (value, message) => { if (!value) throw Object.assign(new Error(message ?? 'assertion failed'), { code: 'ERR_ASSERTION' }); };",
    supports: { call: true },
  },
  // undici reads two things of node:http, which loads Node's whole HTTP server and client: the
  // default header size limit (Node's, 16 KiB: edp passes no Node options) and IncomingMessage,
  // to detach a socket when destroying such a stream as a request body (edp's bodies are strings).
  {
    module: 'node:http',
    importer: /undici[\\/]lib[\\/](dispatcher[\\/]client|core[\\/]util)\.js$/,
    stub: 'module.exports = { maxHeaderSize: 16384, IncomingMessage: class IncomingMessage {} };',
    supports: { members: ['maxHeaderSize', 'IncomingMessage'] },
  },
  // conf validates its store with ajv only when given a schema (its `schema`, `rootSchema` or
  // `ajvOptions` option), which edp never gives (src/config/store.ts): ajv and its formats are
  // left out. The stand-ins throw if conf ever constructs them; checkBundledConf writes and
  // reads back a store with the bundled conf.
  {
    module: 'ajv/dist/2020.js',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "exports.Ajv2020 = class { constructor() { throw new Error('ajv is not bundled with edp (conf without a schema)'); } };",
    supports: { members: ['Ajv2020'], within: ['#setupValidator'] },
  },
  {
    module: 'ajv-formats',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "module.exports = { default() { throw new Error('ajv-formats is not bundled with edp (conf without a schema)'); } };",
    supports: { members: ['default'], within: ['#setupValidator'] },
  },
  // conf compares the file's store with its defaults (assert.deepEqual, loose) to decide whether
  // to write them at construction. JSON data compares the same as text (conf copies the keys in
  // order); checkBundledConf makes a store on an existing file and checks it is not written.
  {
    module: 'node:assert',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "module.exports = { deepEqual(a, b) { if (JSON.stringify(a) !== JSON.stringify(b)) throw Object.assign(new Error('not equal'), { code: 'ERR_ASSERTION' }); } };",
    supports: { members: ['deepEqual'] },
  },
  // semver serves conf's migrations only (its `migrations` and `projectVersion` options), which
  // edp does not use.
  {
    module: 'semver',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "module.exports = new Proxy({}, { get() { throw new Error('semver is not bundled with edp (conf without migrations)'); } });",
    supports: {
      members: ['eq', 'clean', 'satisfies', 'lte', 'gt'],
      within: ['_migrate', '_isVersionInRangeFormat', '_shouldPerformMigration'],
    },
  },
  // atomically (conf's atomic write) imports when-exit, which at load hooks SIGINT, SIGTERM and a
  // dozen other signals to delete its temporary files and then raises the signal again: that
  // would end a run at Ctrl-C before edp's own handler finishes (the notes an interrupted wait or
  // apply prints). The stand-in deletes them at a normal exit only, and hooks no signal.
  {
    module: 'when-exit',
    importer: /atomically[\\/]dist[\\/]utils[\\/]temp\.js$/,
    // (Imported by an ES module, a CommonJS stand-in's default is its module.exports.)
    stub: "module.exports = (callback) => { process.once('exit', callback); return () => process.off('exit', callback); };",
    supports: { call: true },
  },
];

/** @param {string} text */
export const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The source without its comments (roughly: enough that prose about a module is not a use).
 * @param {string} source
 */
function withoutComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/.*$/gm, (c) => c.replace(/[^\n]/g, ' '));
}

/**
 * One use of a module: a call, an export read (`name`), or anything else. `declaration` marks the
 * import itself (a destructured import reads its names there).
 * @typedef {{ kind: 'call' | 'member' | 'other'; name?: string; at: number; text: string; declaration?: boolean }} Use
 */

/**
 * Whether `at` is inside a string literal on its line (roughly: an odd count of one quote before it).
 * @param {string} code
 * @param {number} at
 */
function inString(code, at) {
  const line = code.slice(code.lastIndexOf('\n', at - 1) + 1, at).replace(/\\./g, '');
  return ["'", '"', '`'].some((q) => line.split(q).length % 2 === 0);
}

/**
 * How `source` uses the module it imports as `specifier`: each call of it, each export read,
 * and any other use (passed along, spread, re-exported), with where it is. A test of it
 * (`x &&`, `!x`) is no use: every stand-in is an object or a function.
 * @param {string} source
 * @param {string} specifier
 * @returns {Use[]}
 */
export function moduleUses(source, specifier) {
  const code = withoutComments(source);
  const q = `['"]${escapeRegExp(specifier)}['"]`;
  /** @type {Use[]} */
  const uses = [];
  const snippet = (/** @type {number} */ at) => code.slice(at, at + 60).split('\n')[0] ?? '';
  /** The local names it is bound to; `member` when the name is one export of it. */
  /** @type {Array<{ name: string; end: number; member?: string }>} */
  const bindings = [];
  const claimed = new Set();
  const declaration = new RegExp(
    `(?:const|let|var)\\s+([\\w$]+)\\s*=\\s*require\\(${q}\\)|import\\s+(?:\\*\\s*as\\s+)?([\\w$]+)\\s+from\\s*${q}`,
    'g',
  );
  for (const m of code.matchAll(declaration)) {
    bindings.push({ name: /** @type {string} */ (m[1] ?? m[2]), end: m.index + m[0].length });
    claimed.add(m.index + m[0].indexOf('require(') + 'require'.length);
  }
  const destructured = new RegExp(
    `(?:const|let|var)\\s*\\{([^}]*)\\}\\s*=\\s*require\\(${q}\\)|import\\s*\\{([^}]*)\\}\\s*from\\s*${q}`,
    'g',
  );
  for (const m of code.matchAll(destructured)) {
    for (const part of /** @type {string} */ (m[1] ?? m[2]).split(',')) {
      const [name, local = name] = part.trim().split(/\s*:\s*|\s+as\s+/);
      if (!name || !local) continue;
      uses.push({ kind: 'member', name, at: m.index, text: snippet(m.index), declaration: true });
      bindings.push({ name: local, end: m.index + m[0].length, member: name });
    }
    claimed.add(m.index + m[0].indexOf('require(') + 'require'.length);
  }
  for (const m of code.matchAll(new RegExp(`require\\(${q}\\)(\\.([\\w$]+))?`, 'g'))) {
    const at = m.index + 'require'.length;
    if (claimed.has(at)) continue;
    uses.push(
      m[2]
        ? { kind: 'member', name: m[2], at: m.index, text: snippet(m.index) }
        : { kind: 'other', at: m.index, text: snippet(m.index) },
    );
  }
  for (const { name, end, member: exported } of bindings) {
    for (const m of code.matchAll(new RegExp(`(?<![\\w$.#])${escapeRegExp(name)}(?![\\w$])`, 'g'))) {
      if (m.index < end || inString(code, m.index)) continue;
      const before = code.slice(Math.max(0, m.index - 200), m.index);
      const after = code.slice(m.index + name.length);
      // `export { x as name }`: the name of an export, not this binding.
      if (/\bas\s+$/.test(before)) continue;
      const text = snippet(m.index);
      if (exported) {
        uses.push({ kind: 'member', name: exported, at: m.index, text });
        continue;
      }
      const member = /^\s*\.\s*([\w$]+)/.exec(after);
      const from = /\{([^{}]*)\}\s*=\s*$/.exec(before);
      if (/^\s*\(/.test(after)) uses.push({ kind: 'call', at: m.index, text });
      else if (member) uses.push({ kind: 'member', name: member[1], at: m.index, text });
      else if (from)
        for (const part of /** @type {string} */ (from[1]).split(',')) {
          const key = part.trim().split(/\s*:\s*/)[0];
          if (key) uses.push({ kind: 'member', name: key, at: m.index, text });
        }
      else if (/^\s*(&&|\|\||\?[^.?])/.test(after) || /!\s*$/.test(before)) continue;
      else uses.push({ kind: 'other', at: m.index, text });
    }
  }
  return uses;
}

/**
 * The [start, end) spans of the methods of `source` named `name` (a class method or a function,
 * `name(…) {` at the start of a line, up to the next line at the same indent that closes it).
 * @param {string} source
 * @param {string} name
 * @returns {Array<[number, number]>}
 */
function methodSpans(source, name) {
  /** @type {Array<[number, number]>} */
  const spans = [];
  const head = new RegExp(
    `^([ \\t]*)(?:async\\s+|static\\s+|function\\s+)*${escapeRegExp(name)}\\s*\\([^)]*\\)\\s*\\{`,
    'gm',
  );
  for (const m of source.matchAll(head)) {
    const close = new RegExp(`^${m[1]}\\}`, 'm').exec(source.slice(m.index + m[0].length));
    spans.push([m.index, close ? m.index + m[0].length + close.index : source.length]);
  }
  return spans;
}

/**
 * The uses of the stand-in's module in one file that the stand-in does not support (empty when
 * the assumption it rests on holds), each described for the build's message.
 * @param {StandIn} standIn
 * @param {string} source the importer's source
 * @returns {string[]}
 */
export function unsupportedUses(standIn, source) {
  const { call = false, members = [], within } = standIn.supports;
  const code = withoutComments(source);
  const spans = within?.flatMap((name) => methodSpans(code, name)) ?? [];
  /** @type {string[]} */
  const problems = [];
  const uses = moduleUses(source, standIn.module);
  if (uses.length === 0) problems.push(`no longer uses ${standIn.module} as it did (no use found)`);
  for (const use of uses) {
    if (use.kind === 'call' && !call) problems.push(`calls it: ${use.text}`);
    else if (use.kind === 'member' && !members.includes(/** @type {string} */ (use.name)))
      problems.push(`reads its \`${use.name}\`: ${use.text}`);
    else if (use.kind === 'other') problems.push(`uses it otherwise: ${use.text}`);
    else if (within && !use.declaration && !spans.some(([s, e]) => use.at >= s && use.at < e))
      problems.push(`uses it outside ${within.join(', ')}: ${use.text}`);
  }
  return problems;
}

/** An import of undici or of its loader (src/http/undici.ts), as edp's sources write it. */
const UNDICI_IMPORT = /['"](?:undici(?:\/[^'"]*)?|[^'"]*\/http\/undici\.js)['"]/;

/**
 * edp's sources under `root` (src) that reach the bundled undici: the code that talks HTTP
 * (`api/`, `http/`) and any other file that imports undici or its loader. The sandbox is left
 * out: it is built apart, with undici whole.
 * @param {string} root
 * @returns {string[]} their paths, `root` joined with the path under it
 */
export function undiciReachers(root) {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('sandbox/'))
    .filter((f) => /^(api|http)\//.test(f) || UNDICI_IMPORT.test(withoutComments(readFileSync(join(root, f), 'utf8'))))
    .sort()
    .map((f) => join(root, f));
}

/**
 * Where edp's own code writes what a stand-in rests on its never using (`edpNever`): each line
 * of the files that matches outside comments, described for the build's message with its file
 * and line (empty when every such assumption holds).
 * @param {Array<{ file: string; source: string }>} files
 * @returns {string[]}
 */
export function edpUses(files) {
  /** @type {string[]} */
  const problems = [];
  for (const { file, source } of files) {
    const lines = source.split('\n');
    withoutComments(source)
      .split('\n')
      .forEach((line, n) => {
        for (const standIn of STAND_INS) {
          const found = standIn.edpNever?.pattern.exec(line);
          if (!found || !standIn.edpNever) continue;
          const text = (lines[n] ?? '').trim().slice(0, 100);
          problems.push(
            `${file}:${n + 1}: ${standIn.edpNever.feature} (\`${found[0]}\`), which the stand-in of ${standIn.module} leaves out: ${text}`,
          );
        }
      });
  }
  return problems;
}

/**
 * `edpUses` of the sources under `root` that reach undici (undiciReachers).
 * @param {string} root
 */
export function edpUsesUnder(root) {
  return edpUses(undiciReachers(root).map((file) => ({ file, source: readFileSync(file, 'utf8') })));
}

/**
 * The esbuild plugin that puts the stand-ins in place, and `verify`, to call once every build
 * that used it is done: it checks each file whose import a stand-in took (its assumption), that
 * every stand-in was used (one never used means its dependency no longer imports that module
 * from there: the assumption must be looked at again), and that edp's sources that reach undici
 * (under src) write nothing a stand-in rests on their never using (`edpNever`).
 */
export function standIns() {
  /** @type {Map<StandIn, Set<string>>} */
  const importers = new Map();
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'stand-ins',
    setup(b) {
      const filter = new RegExp(`^(${[...new Set(STAND_INS.map((s) => escapeRegExp(s.module)))].join('|')})$`);
      b.onResolve({ filter }, (args) => {
        const entry = STAND_INS.find((s) => s.module === args.path && s.importer.test(args.importer));
        if (!entry) return undefined;
        importers.set(entry, (importers.get(entry) ?? new Set()).add(args.importer));
        // By its place in the list: two importers may each have their own stand-in for one module.
        // (its module after it names it in source maps)
        return { path: `${STAND_INS.indexOf(entry)}:${entry.module}`, namespace: 'stand-in' };
      });
      b.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({
        contents: STAND_INS[Number.parseInt(args.path, 10)]?.stub,
        loader: 'js',
      }));
    },
  };
  function verify() {
    const own = edpUsesUnder('src');
    if (own.length > 0)
      throw new Error(
        `edp's code uses what a stand-in of scripts/bundle-shims.mjs (STAND_INS) leaves out of the bundle:\n  ${own.join('\n  ')}\n` +
          'Drop that stand-in (and its checks) to use the feature, or do without it.',
      );
    const problems = [];
    for (const standIn of STAND_INS) {
      const files = importers.get(standIn);
      if (!files) {
        problems.push(`${standIn.module} from ${standIn.importer}: no file imports it any more`);
        continue;
      }
      for (const file of files)
        for (const p of unsupportedUses(standIn, readFileSync(file, 'utf8')))
          problems.push(`${standIn.module} in ${file}: ${p}`);
    }
    if (problems.length > 0)
      throw new Error(
        `A bundled dependency changed under a stand-in of scripts/bundle-shims.mjs (STAND_INS):\n  ${problems.join('\n  ')}\n` +
          'Read the new use: extend the stand-in (and its `supports`) if edp still never reaches that feature, or drop the stand-in.',
      );
  }
  return { plugin, verify };
}

/**
 * `source` with `target` replaced by `replacement`; throws unless `target` occurs exactly once.
 * @param {string} source
 * @param {string} target
 * @param {string} replacement
 * @param {string} file named in the error
 */
export function patchOnce(source, target, replacement, file) {
  const count = source.split(target).length - 1;
  if (count !== 1)
    throw new Error(
      `${file}: the build patches "${target}", found ${count} times instead of once: the dependency changed; ` +
        'read its new code and update the patch in scripts/bundle-shims.mjs (or drop it).',
    );
  return source.replace(target, () => replacement);
}

// undici creates its WebAssembly HTTP parser on the first connection, with `lazyllhttp()`: the
// build has it do so through withBaselineWasm (src/http/baseline-wasm.ts), which keeps V8 from
// recompiling the parser on background threads that the process would wait for at exit (on
// Node 24 and 26; on Node 20 and 22 the launcher's --liftoff-only does).
export const PARSER_CALL = 'llhttpInstance = lazyllhttp()';
/** @type {import('esbuild').Plugin} */
export const baselineWasm = {
  name: 'baseline-wasm',
  setup(b) {
    b.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/ }, (args) => {
      const helper = JSON.stringify(resolve('src/http/baseline-wasm.ts'));
      return {
        contents: patchOnce(
          readFileSync(args.path, 'utf8'),
          PARSER_CALL,
          `llhttpInstance = require(${helper}).withBaselineWasm(lazyllhttp)`,
          args.path,
        ),
        loader: 'js',
      };
    });
  },
};

/**
 * Throws unless `name` is pinned to an exact version in `manifest` (package.json) and the
 * installed one is that version: edp imports undici's internals and replaces some of its
 * imports, which hold for the version they were written against only.
 * @param {string} name
 * @param {{ devDependencies?: Record<string, string>; dependencies?: Record<string, string> }} manifest
 * @param {string} installed the installed version
 */
export function checkPinned(name, manifest, installed) {
  const wanted = manifest.devDependencies?.[name] ?? manifest.dependencies?.[name];
  if (!wanted || !/^\d+\.\d+\.\d+$/.test(wanted))
    throw new Error(
      `package.json: ${name} must be pinned to one version (found "${wanted}"): the build replaces some of its imports ` +
        `and src/http imports its internals. Pin it (npm install -D --save-exact ${name}@<version>).`,
    );
  if (installed !== wanted)
    throw new Error(
      `${name} ${installed} is installed, package.json pins ${wanted}: run npm ci. To move to ${installed}, ` +
        'pin it and read the build’s failures: each stand-in and patch of scripts/bundle-shims.mjs checks what it rests on.',
    );
}

/** The installed version of a dependency (from its package.json). */
export function installedVersion(/** @type {string} */ name) {
  const require = createRequire(resolve('package.json'));
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

/**
 * conf as bundled, with its stand-ins: a store written and read back with edp's options must
 * never reach them, make a store on an existing file without writing it, and hook no signal
 * (when-exit's stand-in). A conf that starts to need what was left out fails here.
 * @param {string} bundle the bundled conf (dist/vendor/conf.cjs)
 */
export async function checkBundledConf(bundle) {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s));
  const { default: Conf } = (await import(bundle)).default;
  if (['SIGINT', 'SIGTERM', 'SIGHUP'].some((s, i) => process.listenerCount(s) !== signals[i]))
    throw new Error(
      'conf as bundled hooks a signal (when-exit is bundled again?): it would cut short the Ctrl-C of edp',
    );
  const dir = mkdtempSync(join(tmpdir(), 'edp-build-conf-'));
  try {
    const options = { cwd: dir, configName: 'config', configFileMode: 0o600, clearInvalidConfig: false };
    const store = new Conf(options);
    store.store = { profiles: { default: { workspace: '101' } } };
    const file = join(dir, 'config.json');
    const back = JSON.parse(readFileSync(file, 'utf8'));
    if (back.profiles?.default?.workspace !== '101') throw new Error('conf as bundled did not write its store');
    // A store made on a file that is there writes nothing (edp writes only under its lock).
    writeFileSync(file, '{"profiles": {"a": {"workspace": "7"}}, "tokens": {}}');
    const before = statSync(file).mtimeMs;
    new Conf(options);
    if (statSync(file).mtimeMs !== before || !readFileSync(file, 'utf8').startsWith('{"profiles": {"a"'))
      throw new Error('conf as bundled wrote the file when its store was made');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
