// @ts-check
// The entry of the single executable (scripts/build-binary.mjs; docs/development.md, The single
// executable). The binary holds the launcher (bin/edp.js) and the files of dist/ it loads as Node
// SEA assets, and runs the launcher unchanged, as if the package were unpacked into a folder
// beside the binary (`<binary>.bundle/`): for the code loaded from the binary, and for it alone,
// that folder's files are read from the assets. That code's `require` and `createRequire` find the
// bundle's own files there, its `fs.readFileSync` and `fs.existsSync` read and see them
// (`--help`'s text, jq's wasm), and everything else (the user's files, the code caches) is the
// real file system. Node's own modules are required as usual; nothing is looked up in
// node_modules: the binary needs no Node.js and no files beside it, and reads nothing from the
// working directory.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const { dirname, isAbsolute, join, relative, resolve, sep } = require('node:path');
const { fileURLToPath } = require('node:url');
const { Script } = require('node:vm');
/** @type {{ getAsset(key: string): ArrayBuffer }} */
const sea = require('node:sea');

/** Where the bundle's files appear to be; nothing is ever read from there on disk. */
const ROOT = `${process.execPath}.bundle`;

/** The keys of the assets (paths relative to the package root, with `/`), listed by the build. */
const KEYS = new Set(/** @type {string[]} */ (JSON.parse(asset('assets.json').toString('utf8'))));

/**
 * An asset's bytes (a copy of its own: Node's getAsset copies).
 * @param {string} key
 */
function asset(key) {
  return Buffer.from(sea.getAsset(key));
}

/**
 * A path (or file URL) as an absolute path, and its place under ROOT (undefined outside it).
 * @param {unknown} path
 * @returns {{ path: string, key: string | undefined } | undefined}
 */
function located(path) {
  if (path instanceof URL || (typeof path === 'string' && path.startsWith('file:'))) path = fileURLToPath(path);
  if (typeof path !== 'string') return undefined;
  const absolute = resolve(path);
  const rel = relative(ROOT, absolute);
  const under = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  return { path: absolute, key: under ? rel.split(sep).join('/') : undefined };
}

/**
 * The asset key of a file under ROOT the binary holds, else undefined.
 * @param {unknown} path
 * @returns {string | undefined}
 */
function keyOf(path) {
  const key = located(path)?.key;
  return key !== undefined && KEYS.has(key) ? key : undefined;
}

/** `node:fs` as the bundle sees it: the files under ROOT are the assets. */
const bundleFs = Object.create(fs, {
  readFileSync: {
    /** @type {typeof fs.readFileSync} */
    value: /** @type {any} */ (
      /**
       * @param {any} path
       * @param {any} [options]
       */
      (path, options) => {
        const key = keyOf(path);
        if (key === undefined) return fs.readFileSync(path, options);
        const bytes = asset(key);
        const encoding = typeof options === 'string' ? options : options?.encoding;
        return encoding ? bytes.toString(encoding) : bytes;
      }
    ),
  },
  existsSync: {
    /** @param {any} path */
    value: (path) => keyOf(path) !== undefined || fs.existsSync(path),
  },
});

/** `node:module` as the bundle sees it: createRequire of a file under ROOT loads from the assets. */
const bundleModule = Object.create(Module, {
  createRequire: {
    /** @param {string | URL} file */
    value: (file) => {
      const at = located(file);
      return at?.key === undefined ? Module.createRequire(file) : requireFrom(dirname(at.path));
    },
  },
});

/** Node's own modules (the binary's `require` loads only those). */
const builtin = Module.createRequire(__filename);

/** @type {Map<string, { exports: any }>} */
const loaded = new Map();

/**
 * The `require` of code loaded from ROOT/dir.
 * @param {string} dir
 */
function requireFrom(dir) {
  /** @param {string} id */
  const resolveId = (id) => {
    if (Module.isBuiltin(id)) return id;
    const path = id.startsWith('.') || isAbsolute(id) ? resolve(dir, id) : undefined;
    if (path !== undefined && keyOf(path) !== undefined) return path;
    const err = /** @type {NodeJS.ErrnoException} */ (
      new Error(`Cannot find module '${id}' in the edp binary (required from ${dir})`)
    );
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  };
  /** @param {string} id */
  const require = (id) => {
    const path = resolveId(id);
    if (path === id && Module.isBuiltin(id)) {
      const name = id.replace(/^node:/, '');
      if (name === 'fs') return bundleFs;
      if (name === 'module') return bundleModule;
      return builtin(id);
    }
    return load(path);
  };
  require.resolve = resolveId;
  require.cache = Object.create(null);
  return require;
}

/**
 * Runs one CommonJS file of the assets once, as Node's loader would.
 * @param {string} path under ROOT
 */
function load(path) {
  const cached = loaded.get(path);
  if (cached) return cached.exports;
  const module = { exports: {}, filename: path, id: path, loaded: false };
  loaded.set(path, module);
  // A launcher's `#!` line is valid only at the start of a file.
  const source = asset(/** @type {string} */ (keyOf(path)))
    .toString('utf8')
    .replace(/^#!.*/, '');
  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: path,
  }).runInThisContext();
  wrapper.call(module.exports, module.exports, requireFrom(dirname(path)), module, path, dirname(path));
  module.loaded = true;
  return module.exports;
}

load(join(ROOT, 'bin', 'edp.js'));
