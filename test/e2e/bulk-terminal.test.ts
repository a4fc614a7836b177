import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { operatorEnv } from './helpers.js';
import { atTerminal, terminalUnavailable } from './terminal.js';

// A bulk action as a person sees it: the built tool at a pseudo-terminal asks, naming the count,
// and ends with a table of one row per item.

const unavailable = terminalUnavailable();
const dir = tempDir('edp-e2e-bulk-');
let sb: Sandbox;
beforeAll(async () => {
  if (!unavailable) sb = await sandbox({ buildSeconds: 60 });
});
afterAll(async () => {
  await sb?.close();
  dir.remove();
});

describe.skipIf(unavailable)('a bulk action at a terminal', () => {
  it('asks "Pause 2 loads in 2 workspaces?"; no changes nothing, yes pauses them and shows a row each', async ({
    expect,
  }) => {
    const env = operatorEnv(sb.url, mkdtempSync(join(dir.dir, 'config-')));
    const paused = () => sb.store.state.loads.filter((l) => l.is_paused).map((l) => l.id);
    const argv = ['loads', 'pause', '-w', '101,102'];
    const no = await atTerminal(argv, { env, keys: [{ when: 'Pause 2 loads in 2 workspaces?', send: 'n\r' }] });
    expect(no.code, no.text).toBe(11);
    expect(paused()).toEqual([]);
    const yes = await atTerminal(argv, { env, keys: [{ when: 'Pause 2 loads in 2 workspaces?', send: 'y\r' }] });
    expect(yes.code, yes.text).toBe(0);
    expect(paused()).toEqual([8001, 8002]);
    expect(yes.lines.find((l) => l.startsWith('WORKSPACE'))).toMatch(/^WORKSPACE\s+ID\s+TITLE\s+OUTCOME\s+DETAIL/);
    expect(yes.lines.filter((l) => /^10[12]\s+800[12]\s.*\sok\s+paused/.test(l))).toHaveLength(2);
  });
});
