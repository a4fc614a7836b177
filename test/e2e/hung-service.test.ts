import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, tempDir } from '../helpers.js';
import { V31 } from '../fixtures/recipes.js';
import { operatorEnv, requireBuild, runEdp, startEdp } from './helpers.js';

// The built command line against a service that accepts connections and never answers: the
// sandbox's process is stopped (SIGSTOP). A wait ends at its --wait-timeout (exit 8), whatever
// --timeout and the client's retries would allow (4 attempts of 60 s each before).

const dir = tempDir('edp-e2e-hung-service-');
beforeAll(() => requireBuild());
afterAll(() => dir.remove());

describe('edp recipes poll, built, against a stopped service', () => {
  it('ends at --wait-timeout with exit 8, naming the address and the command that keeps waiting', async () => {
    const child = startEdp(['sandbox', '--port', '0']);
    let stopped = false;
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /^Sandbox listening on (http:\/\/\S+)$/m.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`edp sandbox ended (exit ${code}) before listening: ${out}`)));
      });
      const token = await http({ url }, 'POST', '/api/v3/token', { basic: true, body: { workspace_id: 101 } });
      expect(token.status).toBe(200);
      const made = await http({ url }, 'POST', V31, {
        token: token.body.token,
        body: { template_id: 4001, title: 'Hung service' },
      });
      expect(made.status).toBe(201);
      const id = String(made.body.recipe_id);
      process.kill(child.pid!, 'SIGSTOP');
      stopped = true;
      const r = await runEdp(['-w', '101', 'recipes', 'poll', id, '--wait-timeout', '1s'], {
        env: operatorEnv(url, join(dir.dir, 'config')),
      });
      expect(r.code).toBe(8);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `error: recipe ${id} was not read within 1 s: the service at ${url} did not answer; a build under way goes on at the service; keep waiting with \`edp recipes poll ${id} -w 101\``,
      );
    } finally {
      if (stopped) process.kill(child.pid!, 'SIGCONT');
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
