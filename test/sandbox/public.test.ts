import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPackagedSandbox as startSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers.js';

/**
 * `startSandbox` of `edp/sandbox` from the sources (test/e2e/sandbox-package.test.ts runs the
 * built package's examples): a fixture given as a file or an object, the start time, `advance`,
 * `reset`, and what it refuses.
 */

const dir = tempDir();
afterAll(dir.remove);
const CHIEF = { authorization: `Basic ${btoa('chief@acme.test:pw')}` };
const FIXTURE = { agency: { username: 'chief@acme.test', password: 'pw' }, workspaces: [{ id: 150, title: 'Acme' }] };

describe('startSandbox of edp/sandbox', () => {
  it('starts from the fixture at the start time; advance moves the clock and reset returns to both', async () => {
    const sandbox = await startSandbox({ fixture: FIXTURE, clock: '2026-01-05T09:00:00Z' });
    try {
      const read = () => fetch(`${sandbox.url}/api/v3/workspaces`, { headers: CHIEF });
      expect((await read()).headers.get('date')).toBe('Mon, 05 Jan 2026 09:00:00 GMT');
      const made = await fetch(`${sandbox.url}/api/v3/workspaces`, {
        method: 'POST',
        headers: { ...CHIEF, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Made' }),
      });
      expect(made.status).toBe(201);
      await sandbox.advance(90);
      expect((await read()).headers.get('date')).toBe('Mon, 05 Jan 2026 09:01:30 GMT');
      await sandbox.reset();
      const answer = await read();
      expect(answer.headers.get('date')).toBe('Mon, 05 Jan 2026 09:00:00 GMT');
      expect(((await answer.json()) as { results: Array<{ title: string }> }).results.map((w) => w.title)).toEqual([
        'Acme',
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it('rejects a fixture file that is not valid, naming each problem at its line and column', async () => {
    const file = join(dir.dir, 'bad.yaml');
    writeFileSync(file, 'agency: {username: a@b.test, password: x}\nworkspaces:\n  - titel: Acme\n');
    await expect(startSandbox({ fixture: file })).rejects.toThrow(
      `${file}:3:5: workspaces[0].titel: unknown key (known: id, title, connections, destinations, extracts, recipes, webhooks); did you mean "title"?`,
    );
  });

  it('rejects a start time it cannot read, and an advance by other than seconds', async () => {
    await expect(startSandbox({ clock: 'next monday' })).rejects.toThrow(
      'clock: a start time (a Date, ms or ISO 8601), got next monday',
    );
    const sandbox = await startSandbox({ fixture: FIXTURE });
    try {
      await expect(sandbox.advance(-1)).rejects.toThrow('advance(seconds): a number of seconds from 0, got -1');
    } finally {
      await sandbox.close();
    }
  });
});
