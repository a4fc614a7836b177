import { describe, expect, it } from 'vitest';
import { rowNote } from '../../../src/commands/apply/shared/row-notes.js';
import type { ApplyFact } from '../../../src/fleet/apply.js';

// A row's facts in words: each says what it means and what to run next, and a row with more
// than one says them in the order the run learnt them.

const replan = 'edp plan -f fleet.yaml -w 101,102';
const note = (...facts: ApplyFact[]) => rowNote(facts, replan);

describe("apply: a row's note", () => {
  it('none for a row without facts', () => {
    expect(note()).toBeUndefined();
  });

  it('work stopped: what was sent, and the plan that shows what is left', () => {
    expect(note({ kind: 'not-begun' })).toBe('interrupted before it began: nothing was sent');
    expect(note({ kind: 'unreachable' })).toBe(
      'once the service answers, `edp plan -f fleet.yaml -w 101,102` shows what is left',
    );
    expect(note({ kind: 'write-interrupted', action: 'delete' })).toBe(
      'interrupted while the delete was under way: it may have landed; `edp plan -f fleet.yaml -w 101,102` shows what is left',
    );
    expect(note({ kind: 'earlier-wave-failed', wave: 2, stopped: false })).toBe(
      "once wave 2's failure is dealt with, `edp plan -f fleet.yaml -w 101,102` shows what is left",
    );
    expect(note({ kind: 'earlier-wave-failed', wave: 2, stopped: true })).toBe(
      '`edp plan -f fleet.yaml -w 101,102` shows what is left',
    );
  });

  it('a deployment stopped: what its step may have left, as recipes deploy says it', () => {
    const outcome = { recipe: undefined, error: new Error('stopped'), step: 2, interrupted: true, adopted: false };
    expect(note({ kind: 'interrupted-deploy', outcome, workspace: '101' })).toBe(
      'interrupted before any write: nothing was changed',
    );
  });

  it("a new endpoint's secret and verification, in the order learnt", () => {
    const unverified: ApplyFact = { kind: 'unverified', endpoint: '5001', workspace: '103' };
    const verify =
      'it receives no event until verified: run a receiver with the secret at the url, then `edp webhooks verify 5001 -w 103` (or apply --verify)';
    expect(note(unverified)).toBe(verify);
    expect(note({ kind: 'secret-written', path: '/run/secrets.json' }, unverified)).toBe(
      `secret written to /run/secrets.json; ${verify}`,
    );
    expect(note({ kind: 'secret-not-written', path: '/run/secrets.json', reason: 'EACCES: permission denied' })).toBe(
      'could not write the secret to /run/secrets.json (EACCES: permission denied); it is printed below',
    );
    expect(note({ kind: 'secret-lost', endpoint: '5001', workspace: '103' }, unverified)).toBe(
      `the answer carrying the secret was lost; get a new one with \`edp webhooks rotate-secret 5001 -w 103\`; ${verify}`,
    );
  });

  it('an extract that was there already', () => {
    expect(note({ kind: 'extract-taken', extract: '7001' })).toBe(
      "extract 7001 of the template and account was there already (a recipe's build makes them): taken as it is",
    );
  });
});
