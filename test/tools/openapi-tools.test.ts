import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox } from '../helpers.js';
import { violationOf } from '../fixtures/openapi-check.js';

/** The sandbox's OpenAPI document judged by tools this project did not write. */

/**
 * Redocly's API as far as this file uses it. Its own declarations are some 300,000 lines (with
 * GraphQL's) that every typecheck of the project, so every build, would read: the module is
 * imported by a name the typecheck does not follow.
 */
interface Redocly {
  loadConfig(options: { configPath: string }): Promise<unknown>;
  lintFromString(options: {
    source: string;
    absoluteRef: string;
    config: unknown;
  }): Promise<Array<{ ruleId: string; message: string; location: Array<{ pointer?: string }> }>>;
}
const { loadConfig, lintFromString } = (await import('@redocly/openapi-core' as string)) as Redocly;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spectral's command line on the document, run offline: the ruleset is the package's own,
 * nothing is fetched. Its process is started as soon as the document is there, so that it lints
 * (some 4 s, most of it loading and bundling its ruleset) while this process runs the other
 * tools; its test waits for it.
 */
function spectral(file: string): Promise<Ran> {
  const child = spawn(
    process.execPath,
    [
      'node_modules/@stoplight/spectral-cli/dist/index.js',
      'lint',
      file,
      '--ruleset',
      '.spectral.yaml',
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
    ],
    { env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => {
    child.on('error', (err) => resolve({ status: null, stdout, stderr: `${stderr}${String(err)}` }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let sb: Sandbox;
let text: string;
const dir = mkdtempSync(join(tmpdir(), 'edp-spectral-'));
let spectralRan: Promise<Ran>;
beforeAll(async () => {
  sb = await sandbox();
  const r = await http(sb, 'GET', '/_sandbox/openapi.json');
  text = r.text;
  const file = join(dir, 'openapi.json');
  writeFileSync(file, text);
  spectralRan = spectral(file);
});
afterAll(async () => {
  // Spectral's process has ended before its folder goes, whichever test ran last.
  await spectralRan;
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the OpenAPI document, to outside tools', () => {
  it("passes Redocly's strictest preset (redocly.yaml: every rule, as errors, but the trailing-slash rule)", async () => {
    const config = await loadConfig({ configPath: 'redocly.yaml' });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
  });

  it("passes Spectral's OpenAPI ruleset (.spectral.yaml: every rule, at any severity, but those unfit for an emulator)", async () => {
    const r = await spectralRan;
    expect(r.stderr).toBe('');
    const problems = JSON.parse(r.stdout || '[]') as Array<{ code: string; message: string; path: string[] }>;
    expect(problems.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`)).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('every schema in it compiles under a JSON Schema 2020-12 validator (ajv, strict)', () => {
    const doc = JSON.parse(text);
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', $defs: doc.components.schemas });
    const schemas: unknown[] = [];
    const walk = (v: unknown, key?: string) => {
      if (!v || typeof v !== 'object') return;
      if (key === 'schema') schemas.push(v);
      for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(doc.paths);
    expect(schemas.length).toBeGreaterThan(200);
    // Each distinct schema once: most are the same few (an id, a page, an error), and a compile
    // depends on the schema's content alone (some 90 of 900, a sixth of the time).
    for (const s of new Set(schemas.map((x) => JSON.stringify(x)))) {
      const rebased = JSON.parse(s.replace(/"#\/components\/schemas\//g, '"doc#/$defs/'));
      expect(() => ajv.compile(rebased)).not.toThrow();
    }
  });

  it('the answer check refuses a status or a body the document does not declare', () => {
    const doc = JSON.parse(text);
    const ok = {
      method: 'GET',
      route: '/api/v3/workspaces',
      status: 200,
      body: '{"count":0,"next":null,"previous":null,"results":[]}',
    };
    expect(violationOf(ok, doc)).toBeUndefined();
    expect(violationOf({ ...ok, body: '{"results":[]}' }, doc)).toMatch(/must have required property 'count'/);
    expect(violationOf({ ...ok, status: 202 }, doc)).toMatch(/the document declares 200, 400/);
    expect(violationOf({ ...ok, route: '/api/v3/loads/:id', method: 'DELETE', status: 204, body: '{}' }, doc)).toMatch(
      /a 204 with a body/,
    );
    expect(violationOf({ ...ok, route: undefined, status: 200 }, doc)).toMatch(/not a 301, 404 or 405/);
    // The items of a list, where the contract shows their fields.
    const page = (item: unknown) => JSON.stringify({ count: 1, next: null, previous: null, results: [item] });
    expect(violationOf({ ...ok, body: page({ id: 1 }) }, doc)).toMatch(/must have required property 'title'/);
    const v31 = { ...ok, route: '/api/v3.1/connections/:connection_id/accounts/' };
    const account = { id: 1, title: 'A', is_active: true, enabled_for_embedded_extraction: false };
    expect(violationOf({ ...v31, body: page(account) }, doc)).toBeUndefined();
    expect(violationOf({ ...v31, body: page({ ...account, account_id: '123' }) }, doc)).toMatch(
      /boolean schema is false/,
    );
  });
});
