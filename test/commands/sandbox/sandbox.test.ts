import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cli, parse } from '../../helpers.js';

describe('edp sandbox', () => {
  // --seed, --username, --password and --scale have their defaults applied when the sandbox starts:
  // given, they are the demo data's, which --fixture and --from refuse.
  it('takes its settings as options, with the documented defaults', async () => {
    const { parsed } = await parse(['sandbox', '--port', '0', '--fail-rate', '0.1']);
    expect(parsed?.command).toBe('sandbox');
    expect(parsed?.opts).toEqual({
      args: [],
      port: '0',
      host: '127.0.0.1',
      latency: '0',
      failRate: '0.1',
      retryAfter: '30',
      resetRate: '0',
      buildSeconds: '2',
      tokenTtl: '1800',
      webhookDelay: '1',
    });
  });

  it('refuses a bad value before starting (exit 2)', async () => {
    for (const [argv, message] of [
      [['--fail-rate', '2'], '--fail-rate must be a number from 0 to 1'],
      [['--retry-after', 'soon'], '--retry-after must be a number of seconds'],
      [['--port', '70000'], '--port'],
    ] as const) {
      const r = await cli(undefined, ['sandbox', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('a port already taken is exit 2 naming --port, not a raw listen error', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const r = await cli(undefined, ['sandbox', '--port', port]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: --port ${port} is already in use on 127.0.0.1; pick another port, or --port 0 for a free one\n`,
      );
    } finally {
      taken.close();
    }
  });
});
