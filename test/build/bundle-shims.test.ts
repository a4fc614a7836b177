// The checks of scripts/bundle-shims.mjs: each stand-in refuses a dependency that uses the module
// it replaces in a way it does not support, edp's code that reaches undici may not use what a
// stand-in leaves out, and the patch and the pin refuse a changed target.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkPinned,
  edpUsesUnder,
  moduleUses,
  patchOnce,
  PARSER_CALL,
  STAND_INS,
  undiciReachers,
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

describe("edp's own use of what a stand-in leaves out", () => {
  /** A source tree in a temporary folder with these files (path under it: text); removed after `run`. */
  function withTree(files: Record<string, string>, run: (root: string) => void): void {
    const root = mkdtempSync(join(tmpdir(), 'edp-shims-'));
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      run(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }

  it('holds for the sources, which are read: the client and the webhook forwarder among them', () => {
    const files = undiciReachers('src') as string[];
    expect(files).toEqual(expect.arrayContaining(['src/api/client.ts', 'src/api/forwarder.ts', 'src/http/undici.ts']));
    expect(files.some((f) => f.startsWith('src/sandbox/'))).toBe(false);
    expect(edpUsesUnder('src')).toEqual([]);
  });

  it('refuses HTTP/2 (allowH2, useH2c, ALPNProtocols), naming the file and the line', () => {
    const client = (option: string) =>
      `import { loadUndici } from '../http/undici.js';\nconst undici = loadUndici();\nexport const agent = new undici.Agent({ connections: 4, ${option}: true });\n`;
    withTree({ 'api/client.ts': client('allowH2') }, (root) => {
      expect(edpUsesUnder(root)).toEqual([
        `${join(root, 'api/client.ts')}:3: HTTP/2 (\`allowH2\`), which the stand-in of ./client-h2.js leaves out: export const agent = new undici.Agent({ connections: 4, allowH2: true });`,
      ]);
    });
    for (const option of ['useH2c', 'ALPNProtocols'])
      withTree({ 'http/agent.ts': client(option) }, (root) => {
        expect(edpUsesUnder(root)).toEqual([
          expect.stringContaining(`${join(root, 'http/agent.ts')}:3: HTTP/2 (\`${option}\`)`),
        ]);
      });
  });

  it('refuses a FormData body in any file that reaches undici, naming the file and the line', () => {
    const upload = [
      "import { loadUndici } from '../../http/undici.js';",
      '',
      'export async function upload(file: Blob) {',
      '  const form = new FormData();',
      "  form.append('file', file);",
      "  return loadUndici().request('http://x', { method: 'POST', body: form });",
      '}',
      '',
    ].join('\n');
    withTree({ 'commands/files/upload.ts': upload }, (root) => {
      expect(edpUsesUnder(root)).toEqual([
        `${join(root, 'commands/files/upload.ts')}:4: FormData request bodies (\`FormData\`), which the stand-in of ../web/fetch/body.js leaves out: const form = new FormData();`,
      ]);
    });
    // An object undici would take for FormData, by its tag, in the code that talks HTTP.
    withTree({ 'api/form.ts': "export const body = { [Symbol.toStringTag]: 'FormData' };\n" }, (root) => {
      expect(edpUsesUnder(root)).toEqual([expect.stringContaining('api/form.ts:1: FormData request bodies')]);
    });
  });

  it('reads neither comments, nor code that does not reach undici, nor the sandbox (built with undici whole)', () => {
    withTree(
      {
        'api/client.ts': '// edp never sets allowH2, and sends no FormData\n/* useH2c */\nexport const a = 1;\n',
        'commands/files/form.ts': 'export const form = new FormData();\n',
        'sandbox/routes/deliver.ts':
          "import { Agent } from 'undici';\nexport const agent = new Agent({ allowH2: true });\n",
      },
      (root) => {
        expect(undiciReachers(root)).toEqual([join(root, 'api/client.ts')]);
        expect(edpUsesUnder(root)).toEqual([]);
      },
    );
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
