import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, http, useSandbox } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';
import { writable } from '../../fixtures/fleet.js';

// The fleet file and the saved plan are read as every file edp reads is (util/document.ts):
// each refusal is exit 2, names the file and where, and nothing is sent.

const run = useSandbox({ buildSeconds: 0 });
const file = useFiles('edp-files-read-');

const FLEET = `workspaces: [101]
roles:
  - title: Rôle Média
    description: Café Performance
    permissions: [EXTRACT:RUN]
`;

/** A saved plan of FLEET, against this file's sandbox. */
async function savedPlan(name: string): Promise<string> {
  const out = file(name, '');
  const r = await cli(run.sb, ['plan', '-f', file('fleet.yaml', FLEET), '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

/** Runs argv and expects a refusal (exit 2) that sent nothing and changed nothing. */
async function refused(argv: string[], opts: { stdin?: string } = {}): Promise<string> {
  const before = writable(run.sb);
  await http(run.sb, 'DELETE', '/_sandbox/requests');
  const r = await cli(run.sb, argv, opts);
  expect(r.code, r.stderr).toBe(2);
  expect((await http(run.sb, 'GET', '/_sandbox/requests')).body.results).toEqual([]);
  expect(writable(run.sb)).toBe(before);
  return r.stderr;
}

describe('a saved plan given where a fleet file goes', () => {
  it('apply -f and plan -f say it is a saved plan and how to apply it, instead of listing fleet-file problems', async () => {
    const out = await savedPlan('saved.json');
    const said = `error: --file ${out} is a plan saved by \`edp plan --out\`, not a fleet file: apply it with \`edp apply ${out}\`, or plan again with -f and the fleet file it was planned from (${file('fleet.yaml', FLEET)})\n`;
    expect(await refused(['apply', '-f', out, '--yes'])).toBe(said);
    expect(await refused(['plan', '-f', out])).toBe(said);
    const piped = await refused(['apply', '-f', '-', '--yes'], { stdin: readFileSync(out, 'utf8') });
    expect(piped).toContain('--file standard input is a plan saved by `edp plan --out`, not a fleet file');
    expect(piped).toContain('apply it with `edp apply FILE` (saved to FILE)');
  });
});

describe('a saved plan read as every file is', () => {
  it('refuses a key given twice, naming the key, the file, line and column', async () => {
    const out = await savedPlan('dup.json');
    // The fleet file inside the plan names its role twice: JSON would apply the second silently.
    const text = readFileSync(out, 'utf8').replace(
      /^( *)"title": "Rôle Média"/m,
      '$1"title": "Rôle Média", "title": "Other"',
    );
    writeFileSync(out, text);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"title": "Other"')) + 1;
    const column = lines[line - 1]!.indexOf('"title": "Other"') + 1;
    expect(await refused(['apply', out, '--yes'])).toBe(
      `error: saved plan ${out} is not a valid document:\n  ${out}:${line}:${column}: source.file.roles[0]: the key "title" is given twice\n`,
    );
  });

  it('refuses a plan that is not UTF-8 text, naming the byte and where it is', async () => {
    const out = await savedPlan('latin1.json');
    const text = readFileSync(out, 'utf8');
    writeFileSync(out, Buffer.from(text, 'latin1'));
    const at = Buffer.from(text.slice(0, text.indexOf('ô')), 'latin1').length;
    const before = text.slice(0, text.indexOf('ô'));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    expect(await refused(['apply', out, '--yes'])).toBe(
      `error: saved plan: ${out} is not UTF-8 text (the byte 0xF4 at line ${line}, column ${column}, byte offset ${at}); save it as UTF-8\n`,
    );
  });
});

describe('a fleet file read as every file is', () => {
  it('says a number out of range is one, rather than that a list was not a list', async () => {
    const f = file('big.json', '{"workspaces": [1e400]}');
    expect(await refused(['apply', '-f', f, '--yes'])).toBe(
      `error: --file ${f} is not a valid document:\n  ${f}:1:17: workspaces[0]: the number 1e400 is too large: a number must be within ±1.8e308\n`,
    );
    const y = file('big.yaml', 'workspaces: [101]\nroles:\n  - title: A\n    permissions: [-1e400]\n');
    expect(await refused(['plan', '-f', y])).toContain(
      `${y}:4:19: roles[0].permissions[0]: the number -1e400 is too large`,
    );
  });

  it('refuses YAML nested deep enough to exhaust the parser as nested too deep, naming the file', async () => {
    const f = file('deep.yaml', `workspaces: [101]\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    expect(await refused(['apply', '-f', f, '--yes'])).toMatch(
      new RegExp(
        `^error: --file ${f} is not a valid document:\\n  ${f}:2:\\d+: nested more than 256 levels deep, more than edp reads\\n$`,
      ),
    );
  });
});
