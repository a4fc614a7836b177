import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { terminalSafe, terminalSafeStyled } from '../../src/output/terminal-text.js';
import { cli, sandbox } from '../helpers.js';

// A bidirectional control in service text reorders what a person reads: after U+202E (right-to-left
// override) `report.txt.exe` can show as `report.exe.txt`, and the rest of a table row runs backwards.

/** Every bidirectional control: embeddings and overrides, isolates, and the marks. */
const BIDI = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];
const ANY_BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const TITLE = `Invoice \u202etxt.exe\u202c ${BIDI.join('')} end`;
const SHOWN = 'Invoice \\u202etxt.exe\\u202c ';

describe('bidirectional controls in service text', () => {
  let sb: Sandbox;
  let id: number;
  beforeAll(async () => {
    sb = await sandbox();
    const created = await cli(sb, ['workspaces', 'create', '--title', TITLE, '--json']);
    expect(created.code, created.stderr).toBe(0);
    id = created.json().id;
  });
  afterAll(() => sb.close());

  it('are escaped in tables, details and piped rows, with colour and without', async () => {
    const table = await cli(sb, ['workspaces', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    const coloured = await cli(sb, ['workspaces', 'list'], { tty: true, env: { FORCE_COLOR: '1' } });
    const detail = await cli(sb, ['workspaces', 'get', String(id)], { tty: true, env: { NO_COLOR: '1' } });
    const piped = await cli(sb, ['workspaces', 'get', String(id)]);
    const rows = await cli(sb, ['workspaces', 'list']);
    for (const r of [table, coloured, detail, piped, rows]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(ANY_BIDI);
      expect(r.stdout).toContain(SHOWN);
    }
    expect(table.stdout).toContain(
      `${SHOWN}\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c end`,
    );
    expect(detail.stdout).toMatch(/title\s+Invoice \\u202etxt\.exe/);
  });

  it('are kept exact in --json and --ndjson', async () => {
    const json = await cli(sb, ['workspaces', 'get', String(id), '--json']);
    expect(json.json().title).toBe(TITLE);
    const nd = await cli(sb, ['workspaces', 'list', '--ndjson']);
    const titles = nd.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).title);
    expect(titles).toContain(TITLE);
  });
});

describe('terminalSafe and bidirectional controls', () => {
  it('escapes each as \\uHHHH and leaves right-to-left text itself alone', () => {
    for (const c of BIDI) expect(terminalSafe(`a${c}b`)).toBe(`a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    expect(terminalSafe('שלום عربي')).toBe('שלום عربي');
    expect(terminalSafe('\u200b\u00a0')).toBe('\u200b\u00a0');
    expect(terminalSafeStyled('\u001b[1mx\u001b[22m\u202e', true)).toBe('\u001b[1mx\u001b[22m\\u202e');
    expect(terminalSafeStyled('\u2067x\u2069', false)).toBe('\\u2067x\\u2069');
  });
});
