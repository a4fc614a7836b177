import type { Context } from '../../context.js';
import type { WorkspaceScope } from '../../config/resolve.js';

/**
 * The workspaces of a verb that spans them: `-w IDS`, EDP_WORKSPACE or `--all-workspaces`
 * (config/resolve.ts), checked before any request; a usage error naming them when none is given.
 */
export function workspaceChoice(ctx: Context, opts: { allWorkspaces?: boolean | undefined }): WorkspaceScope {
  return ctx.settings.requireWorkspaceScope(opts).value;
}

/** The workspaces a fleet file is narrowed to (`-w IDS` or EDP_WORKSPACE); undefined for all of the file's. */
export function fleetScope(ctx: Context): string[] | undefined {
  return ctx.settings.fleetScope()?.value;
}
