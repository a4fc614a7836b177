// The checks of scripts/bundle-shims.mjs: each stand-in refuses a dependency that uses the module
// it replaces in a way it does not support, and the patch and the pin refuse a changed target.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkPinned,
  moduleUses,
  patchOnce,
  PARSER_CALL,
  STAND_INS,
  unsupportedUses,
  // @ts-expect-error: the build's own module, plain JavaScript
} from '../../scripts/bundle-shims.mjs';

/** A stand-in of scripts/bundle-shims.mjs, as far as these tests read it. */
interface StandIn {
  module: string;
  importer: RegExp;
}

/** A file of an installed dependency, by its path under node_modules. */
const resolvePath = (path: string) => join('node_modules', path);
const source = (path: string) => readFileSync(resolvePath(path), 'utf8');

/** The stand-in of `module` for the file `importer`. */
function standIn(module: string, importer: string): StandIn {
  const found = (STAND_INS as StandIn[]).find((s) => s.module === module && s.importer.test(importer));
  if (!found) throw new Error(`no stand-in of ${module} for ${importer}`);
  return found;
}

describe('stand-ins', () => {
  const undiciAssert = standIn('node:assert', '/x/node_modules/undici/lib/core/util.js');

  it('hold for the installed dependencies', () => {
    const files: Array<[string, string]> = [
      ['node:assert', 'undici/lib/core/util.js'],
      ['node:assert', 'undici/lib/dispatcher/client-h1.js'],
      ['node:http', 'undici/lib/dispatcher/client.js'],
      ['node:http', 'undici/lib/core/util.js'],
      ['./client-h2.js', 'undici/lib/dispatcher/client.js'],
      ['../web/fetch/body.js', 'undici/lib/dispatcher/client-h1.js'],
    ];
    for (const [module, file] of files) {
      const path = resolvePath(file);
      expect(unsupportedUses(standIn(module, path), readFileSync(path, 'utf8')), `${module} in ${file}`).toEqual([]);
    }
  });

  it('node:assert for undici refuses any call but assert(value)', () => {
    const real = source('undici/lib/core/util.js');
    expect(unsupportedUses(undiciAssert, real)).toEqual([]);
    const changed = `${real}\nfunction check (a, b) { assert.strictEqual(a, b) }\n`;
    expect(unsupportedUses(undiciAssert, changed)).toEqual([expect.stringContaining('reads its `strictEqual`')]);
    const destructured = "const { deepStrictEqual } = require('node:assert')\ndeepStrictEqual(1, 1)\n";
    const problems = unsupportedUses(undiciAssert, destructured);
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toContain('`deepStrictEqual`');
    const passed = "const assert = require('node:assert')\nmodule.exports = { assert }\n";
    expect(unsupportedUses(undiciAssert, passed)).toEqual([expect.stringContaining('uses it otherwise')]);
  });

  it('a comment or a string that names the module is no use of it', () => {
    const text =
      "const assert = require('node:assert')\n// assert.ok is not used\nconst s = 'assert.deepEqual'\nassert(s)\n";
    expect(unsupportedUses(undiciAssert, text)).toEqual([]);
  });

  it('node:http for undici refuses an export it does not provide', () => {
    const s = standIn('node:http', '/n/undici/lib/dispatcher/client.js');
    const real = source('undici/lib/dispatcher/client.js');
    expect(unsupportedUses(s, real)).toEqual([]);
    expect(unsupportedUses(s, `${real}\nconst agent = new http.Agent()\n`)).toEqual([
      expect.stringContaining('reads its `Agent`'),
    ]);
  });

  it('conf: ajv outside its validator set-up, and a new assert call, are refused', () => {
    const ajv = standIn('ajv/dist/2020.js', '/n/conf/dist/source/index.js');
    const assert = standIn('node:assert', '/n/conf/dist/source/index.js');
    const real = source('conf/dist/source/index.js');
    expect(unsupportedUses(ajv, real)).toEqual([]);
    expect(unsupportedUses(assert, real)).toEqual([]);
    const eager = real.replace(
      /^ {4}constructor\(partialOptions = \{\}\) \{/m,
      (c) => `${c}\n        this.ajv = new Ajv();`,
    );
    expect(unsupportedUses(ajv, eager)).toEqual([expect.stringContaining('outside #setupValidator')]);
    const semver = standIn('semver', '/n/conf/dist/source/index.js');
    expect(unsupportedUses(semver, real)).toEqual([]);
    const eagerSemver = real.replace(
      /^ {4}constructor\(partialOptions = \{\}\) \{/m,
      (c) => `${c}\n        semver.clean('1.0.0');`,
    );
    expect(unsupportedUses(semver, eagerSemver)).toEqual([expect.stringContaining('outside _migrate')]);
    expect(unsupportedUses(assert, real.replace('assert.deepEqual(', 'assert.deepStrictEqual('))).toEqual([
      expect.stringContaining('`deepStrictEqual`'),
    ]);
  });

  it('a file that no longer imports the module is told', () => {
    expect(unsupportedUses(undiciAssert, "'use strict'\nmodule.exports = 1\n")).toEqual([
      expect.stringContaining('no use found'),
    ]);
  });

  it('moduleUses tells calls, exports read and other uses apart', () => {
    const uses = moduleUses("import x from 'm'\nimport { a as b } from 'm'\nx(1)\nx.y\nb()\nfoo(x)\n", 'm');
    expect((uses as Array<{ kind: string; name?: string }>).map((u) => `${u.kind}:${u.name ?? ''}`)).toEqual([
      'member:a',
      'call:',
      'member:y',
      'other:',
      'member:a',
    ]);
  });
});

describe('the patch of undici', () => {
  const file = resolvePath('undici/lib/dispatcher/client-h1.js');

  it('applies to the installed undici', () => {
    expect(patchOnce(readFileSync(file, 'utf8'), PARSER_CALL, 'PATCHED', file)).toContain('PATCHED');
  });

  it('refuses a target found twice or not at all', () => {
    expect(() => patchOnce(`${PARSER_CALL}\n${PARSER_CALL}`, PARSER_CALL, 'x', file)).toThrow(/found 2 times/);
    expect(() => patchOnce('llhttpInstance = await lazyllhttp()', PARSER_CALL, 'x', file)).toThrow(
      /found 0 times instead of once/,
    );
  });
});

describe('the pin of undici', () => {
  const installed = JSON.parse(source('undici/package.json')) as { version: string };

  it('holds for package.json and the installed undici', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(() => checkPinned('undici', manifest, installed.version)).not.toThrow();
  });

  it('refuses a range, and another installed version', () => {
    expect(() => checkPinned('undici', { devDependencies: { undici: '^7.30.2' } }, '7.30.2')).toThrow(
      /must be pinned to one version/,
    );
    expect(() => checkPinned('undici', { devDependencies: { undici: '7.30.2' } }, '7.31.0')).toThrow(
      /undici 7.31.0 is installed, package.json pins 7.30.2/,
    );
  });
});
