import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir, useSandbox } from '../../helpers.js';
import { FLEET_SCHEMA_URL } from '../../../src/fleet/schema-id.js';

const t = useSandbox({ buildSeconds: 0 });

it("writes each workspace as a client (id and title), names the fleet file's JSON Schema in its header, and plans no change", async () => {
  const out = join(tempDir().dir, 'fleet.yaml');
  expect((await t.edp('export', '-w', '101,103', '--output', out)).code).toBe(0);
  const text = readFileSync(out, 'utf8');
  const lines = text.split('\n');
  expect(lines[0]).toMatch(/^# edp export, sha256:[0-9a-f]{16}: /);
  expect(lines[1]).toBe(`# yaml-language-server: $schema=${FLEET_SCHEMA_URL}`);
  expect(text).toContain('clients:\n  - title: Acme Retail\n    id: 101\n  - title: Initech Apps\n    id: 103\n');
  const plan = await t.edp('plan', '-f', out, '--detailed-exitcode');
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain('No changes');
  // The header is the export's own: a later export replaces the file without --force.
  expect((await t.edp('export', '-w', '101', '--output', out)).code).toBe(0);
  expect(readFileSync(out, 'utf8')).toContain('clients:\n  - title: Acme Retail\n    id: 101\n');
});
