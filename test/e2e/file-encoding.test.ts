import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { runBuiltInProcess } from './built-in-process.js';
import { operatorEnv, requireBuild } from './helpers.js';

// The built command line (its bundle, run in this process: what it reads and prints is the
// subject), given a saved plan that a real iconv (Debian's) turned into Latin-1: it is refused as
// not UTF-8, as the same fleet file given with -f is, and nothing is created with U+FFFD in its name.

const work = tempDir('edp-e2e-encoding-');
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
});
afterAll(async () => {
  await sb.close();
  work.remove();
});

const FLEET = `workspaces: [101]
roles:
  - title: Rôle Média
    description: Café Performance
    permissions: [EXTRACT:RUN]
`;

/** `iconv -f UTF-8 -t LATIN1 from > to`, with the system's iconv. */
function toLatin1(from: string, to: string): void {
  writeFileSync(to, execFileSync('iconv', ['-f', 'UTF-8', '-t', 'LATIN1', from]));
}

describe('files that are not UTF-8, on the built tool', () => {
  it('a saved plan converted to Latin-1 is refused (exit 2), naming the file and the byte, and nothing is created', async () => {
    const env = operatorEnv(sb.url, join(work.dir, 'config'));
    const fleet = join(work.dir, 'fleet.yaml');
    writeFileSync(fleet, FLEET);
    const plan = join(work.dir, 'plan.json');
    const planned = await runBuiltInProcess(['plan', '-f', fleet, '--out', plan], { env });
    expect(planned.code, planned.stderr).toBe(0);
    const latin1 = join(work.dir, 'latin1.json');
    toLatin1(plan, latin1);
    expect(readFileSync(latin1)).not.toEqual(readFileSync(plan));

    const roles = () => (sb.store.state.roles ?? []).map((r) => r.title);
    const before = roles();
    const applied = await runBuiltInProcess(['apply', latin1, '--yes'], { env });
    expect(applied.code).toBe(2);
    expect(applied.stderr).toMatch(
      new RegExp(
        `^error: saved plan: ${latin1} is not UTF-8 text \\(the byte 0xF4 at line \\d+, column \\d+, byte offset \\d+\\); save it as UTF-8\\n$`,
      ),
    );
    expect(roles()).toEqual(before);

    // The same, as a fleet file given with -f.
    const latin1Fleet = join(work.dir, 'latin1.yaml');
    toLatin1(fleet, latin1Fleet);
    const fromFile = await runBuiltInProcess(['apply', '-f', latin1Fleet, '--yes'], { env });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toBe(
      `error: --file: ${latin1Fleet} is not UTF-8 text (the byte 0xF4 at line 3, column 13, byte offset 37); save it as UTF-8\n`,
    );
    expect(roles()).toEqual(before);

    // The plan as saved, in UTF-8, creates the role with its name as written.
    const original = await runBuiltInProcess(['apply', plan, '--yes'], { env });
    expect(original.code, original.stderr).toBe(0);
    expect(roles()).toEqual([...before, 'Rôle Média']);
  });
});
