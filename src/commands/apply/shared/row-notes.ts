import type { ApplyFact } from '../../../fleet/apply.js';
import { suggest } from '../../../util/suggest.js';
import { interruptedNote } from '../../shared/deploy-steps.js';

/**
 * A row's note: its facts in words, in the order the run learnt them, each with what to run
 * next. `replan` is the plan command that shows what is left of the same file and scope.
 */
export function rowNote(facts: readonly ApplyFact[], replan: string): string | undefined {
  if (facts.length === 0) return undefined;
  return facts.map((f) => factText(f, replan)).join('; ');
}

function factText(f: ApplyFact, replan: string): string {
  const left = `\`${replan}\` shows what is left`;
  switch (f.kind) {
    case 'not-begun':
      return 'interrupted before it began: nothing was sent';
    case 'unreachable':
      return `once the service answers, ${left}`;
    case 'write-interrupted':
      return `interrupted while the ${f.action} was under way: it may have landed; ${left}`;
    case 'interrupted-deploy':
      return interruptedNote(f.outcome, f.workspace);
    case 'secret-lost':
      return `the answer carrying the secret was lost; get a new one with \`${suggest(['webhooks', 'rotate-secret', f.endpoint], { workspace: f.workspace })}\``;
    case 'secret-written':
      return `secret written to ${f.path}`;
    case 'secret-not-written':
      return `could not write the secret to ${f.path} (${f.reason}); it is printed below`;
    case 'unverified':
      return `it receives no event until verified: run a receiver with the secret at the url, then \`${suggest(['webhooks', 'verify', f.endpoint], { workspace: f.workspace })}\` (or apply --verify)`;
    case 'extract-taken':
      return `extract ${f.extract} of the template and account was there already (a recipe's build makes them): taken as it is`;
    case 'earlier-wave-failed':
      return f.stopped ? left : `once wave ${f.wave}'s failure is dealt with, ${left}`;
  }
}
