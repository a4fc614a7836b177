import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tempDir, waitUntil } from '../helpers.js';
import { receiver } from '../fixtures/webhooks.js';
import { operatorEnv, runEdp, startEdp } from './helpers.js';

describe('edp sandbox trigger, built', () => {
  it('a sandbox started by the built edp sends the event a second built edp triggers, signed, to the receiver', async () => {
    const child = startEdp(['sandbox', '--port', '0', '--webhook-delay', '0']);
    const hooks = await receiver();
    const own = tempDir('edp-e2e-trigger-');
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
      const env = operatorEnv(url, own.dir);
      const created = await runEdp(
        ['webhooks', 'create', '-w', '101', '--url', hooks.url, '--events', 'load_completed', '--json'],
        { env },
      );
      expect(created.code, created.stderr).toBe(0);
      const { id, secret } = created.json();
      expect((await runEdp(['webhooks', 'verify', String(id), '-w', '101'], { env })).code).toBe(0);

      const bad = await runEdp(['sandbox', 'trigger', 'load_completed', '-w', '101', '--data', '[1]'], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--data');

      const r = await runEdp(['sandbox', 'trigger', 'load_completed', '-w', '101', '--data', '{"load_id": "42"}'], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`endpoint ${id} ${hooks.url}`);
      const post = await waitUntil(() => hooks.posts()[0]);
      expect(post.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(post.body).digest('hex'));
      const event = JSON.parse(post.body);
      expect(event.type).toBe('load_completed');
      expect(event.data.load_id).toBe('42');
      expect(hooks.posts()).toHaveLength(1);
    } finally {
      own.remove();
      await hooks.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
