import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, http, sandbox, tempDir, tokenFor, waitUntil } from '../helpers.js';
import { V31, configuration, configure, createRecipe } from '../fixtures/recipes.js';
import { operatorEnv, requireBuild } from './helpers.js';
import { runBuiltInProcess } from './built-in-process.js';

// The built command line waiting for a build whose service stops: it ends with exit 1, naming
// the address and the command that resumes the wait, instead of waiting out --wait-timeout.
// The shipped bundle runs in this process (built-in-process.ts): what is judged is how it
// tells a refused connection, and its pauses between attempts pass on pretend time.

const dir = tempDir('edp-e2e-dead-service-');
beforeAll(() => requireBuild());
afterAll(() => dir.remove());

describe('edp recipes poll, built, against a service that stops mid-wait', () => {
  it('exit 1 with the address, the state last read and the command to resume', async () => {
    const sb = await sandbox({ buildSeconds: 600 });
    let closed = false;
    try {
      const token = await tokenFor(sb, 101);
      const id = await createRecipe(sb, token, 4001);
      await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
      expect((await http(sb, 'POST', `${V31}${id}/build/`, { token })).status).toBe(202);
      const run = runBuiltInProcess(['-w', '101', 'recipes', 'poll', id, '--poll-interval', '10ms'], {
        env: operatorEnv(sb.url, join(dir.dir, 'config')),
      });
      // The wait has read the recipe once the journal shows a read of it after the build started.
      await waitUntil(
        async () => {
          const { results } = (await control(sb, 'GET', '/requests')) as {
            results: Array<{ method: string; path: string }>;
          };
          const started = results.findLastIndex((e) => e.method === 'POST' && e.path === `${V31}${id}/build/`);
          return results.slice(started + 1).some((e) => e.method === 'GET' && e.path === `${V31}${id}/`);
        },
        { timeoutMs: 10_000, what: `a read of recipe ${id}` },
      );
      closed = true;
      await sb.close();
      const r = await run;
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('service unreachable (ECONNREFUSED), retrying');
      expect(r.stderr).toContain(`error: stopped waiting: the service at ${sb.url} is unreachable (ECONNREFUSED;`);
      expect(r.stderr).toMatch(new RegExp(`recipe ${id} was last read (just now|\\d+ s ago), as [a-z_]+;`));
      expect(r.stderr).toContain(`resume the wait with \`edp recipes poll ${id} -w 101\``);
    } finally {
      if (!closed) await sb.close();
    }
  });
});
