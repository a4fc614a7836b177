import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, control, useSandbox } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';

// `edp api --input FILE` reads its body as every file edp reads is read: what a JSON parser
// would read otherwise than it is written (a key given twice, a number out of range, bytes
// that are not UTF-8) is refused, exit 2, naming the file, and nothing is sent.

const run = useSandbox();
const file = useFiles('edp-api-input-');

const post = (input: string) => run.edp('api', 'POST', '/api/v3/workspaces', '--input', input);

async function nothingSent(): Promise<void> {
  const { results } = (await control(run.sb, 'GET', '/requests')) as { results: unknown[] };
  expect(results).toEqual([]);
}

describe('edp api --input FILE', () => {
  it('refuses a key given twice, naming the key, the file, line and column', async () => {
    const f = file('dup.json', '{\n  "title": "First",\n  "title": "Second"\n}\n');
    const r = await post(f);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --input ${f} is not a valid document:\n  ${f}:3:3: the key "title" is given twice\n`);
    await nothingSent();
  });

  it('refuses a number a double cannot hold as such', async () => {
    const f = file('big.json', '{"title": "T", "limits": {"rows": -1e400}}');
    const r = await post(f);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${f}:1:35: limits.rows: the number -1e400 is too large: a number must be within ±1.8e308`,
    );
    await nothingSent();
  });

  it('refuses a file that is not UTF-8, naming the byte and where it is', async () => {
    const f = file('latin1.json', '');
    writeFileSync(f, Buffer.from('{"title": "Café"}', 'latin1'));
    const r = await post(f);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--input: ${f} is not UTF-8 text (the byte 0xE9 at line 1, column 15, byte offset 14)`);
    await nothingSent();
  });

  it('refuses the same from standard input, and JSON nested past the bound', async () => {
    const r = await cli(run.sb, ['api', 'POST', '/api/v3/workspaces', '--input', '-'], { stdin: '{"a": 1, "a": 2}' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --input standard input is not a valid document:\n  standard input:1:10: the key "a" is given twice\n',
    );
    const deep = await run.edp('api', 'POST', '/api/v3/workspaces', '--input', file('deep.json', '['.repeat(5000)));
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain('nested more than 256 levels deep');
    await nothingSent();
  });
});
