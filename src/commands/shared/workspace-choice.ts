import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseIdList } from '../../util/validate.js';

/** `-w IDS` or `--all-workspaces` (else the default workspace), checked before any request. */
export function workspaceChoice(ctx: Context, opts: { allWorkspaces?: boolean | undefined }): string[] | 'all' {
  if (opts.allWorkspaces && ctx.flags.workspace !== undefined)
    throw new UsageError('pass either -w/--workspace or --all-workspaces, not both');
  if (opts.allWorkspaces) return 'all';
  if (ctx.flags.workspace !== undefined) return parseIdList(ctx.flags.workspace, '--workspace');
  const ws = ctx.workspace();
  if (ws) return [ws];
  throw new UsageError('name the workspaces: pass -w/--workspace ID[,ID…] or --all-workspaces');
}

/** `-w IDS` on a fleet file's command (plan, apply): only those of the file's workspaces; undefined for all of them. */
export function fleetScope(ctx: Context): string[] | undefined {
  return ctx.flags.workspace === undefined ? undefined : parseIdList(ctx.flags.workspace, '--workspace');
}
