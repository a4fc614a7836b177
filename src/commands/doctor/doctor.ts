import type { Context } from '../../context.js';
import { ExitError } from '../../errors.js';
import { pool } from '../../fleet/pool.js';
import { inOrder } from '../../util/in-order.js';
import { workspacesOf } from '../../fleet/select.js';
import { workspaceChoice } from '../shared/workspace-choice.js';
import { idText } from '../../util/json.js';
import { fleetConcurrency } from '../shared/concurrency.js';
import { checkCredentials, checkWorkspace, uncheckedFinding, type Finding } from './shared/checks.js';
import type { DoctorOptions } from './command.js';

/**
 * `edp doctor`: what needs action in each workspace, each finding with the command that fixes
 * it. `--json` prints the findings as one array. Exit 0 when nothing needs action, 1 for
 * findings, 12 when a check could not be made (the service unreachable, credentials refused).
 */
export async function runDoctor(opts: DoctorOptions, ctx: Context): Promise<void> {
  const choice = workspaceChoice(ctx, opts);
  const concurrency = fleetConcurrency(ctx, opts.concurrency, 'reads');
  const api = await ctx.api();
  const findings: Finding[] = [];
  const credentials = await checkCredentials(api, ctx.settings.baseUrl().value);
  if (credentials) findings.push(credentials);
  else {
    const workspaces = await workspacesOf(api, choice);
    // Each workspace's line in the order of the list, as soon as those before it are done.
    const say = inOrder(workspaces.length, (line) => ctx.output.info(line));
    const results = await pool(workspaces, concurrency(workspaces.length), async (ws, i) => {
      try {
        const f = await checkWorkspace(api, ws);
        say(
          i,
          `${f.length === 0 ? ctx.output.err.green('✓') : ctx.output.err.yellow('!')} workspace ${ws}: ${f.length === 0 ? 'nothing needs action' : `${f.length} finding(s)`}`,
        );
        return f;
      } catch (err) {
        say(i, `${ctx.output.err.red('✗')} workspace ${ws}: could not be checked`);
        return [uncheckedFinding(err, ws, ctx.settings.baseUrl().value)];
      }
    });
    findings.push(...results.flat());
  }
  if (ctx.output.machine) ctx.output.json(findings);
  else if (findings.length === 0) ctx.output.line('No finding: nothing needs action.');
  else {
    for (const f of findings) {
      // The finding is prose, fitted to the window; the fix may hold a command to paste: left whole.
      ctx.output.prose(
        `${f.workspace_id === null ? 'agency' : `workspace ${idText(f.workspace_id)}`}: ${f.check}: ${f.code}: ${f.message}`,
      );
      ctx.output.line(`  fix: ${f.fix}`);
    }
  }
  // The findings are printed above: 12 when something could not be checked, else 1 for findings.
  if (findings.some((f) => f.unchecked))
    throw new ExitError('couldNotCheck', 'some checks could not be made', { silent: true });
  if (findings.length > 0)
    throw new ExitError('failure', `${findings.length} finding(s) need action`, { silent: true });
}
