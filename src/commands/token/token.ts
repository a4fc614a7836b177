import { tokenExpiresAt } from '../../api/auth.js';
import type { Context } from '../../context.js';
import { jsonInteger } from '../../util/json.js';
import type { TokenOptions } from './command.js';
import { UsageError } from '../../errors.js';
import { shellWord } from '../../util/shell.js';

export async function runToken(opts: TokenOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  if (opts.env && ctx.output.machine) throw new UsageError('pass either --env or --json, not both');
  const api = await ctx.api();
  const token = await api.auth.token(ws, api.client);
  const cached = api.auth.cachedToken(ws);
  if (ctx.output.machine) {
    ctx.output.json({
      token,
      workspace_id: jsonInteger(ws),
      expires_at: cached ? new Date(tokenExpiresAt(cached)).toISOString() : null,
    });
  } else if (opts.env) {
    // For `eval "$(edp -w 101 token --env)"`: the token and the one workspace it acts in, together.
    ctx.output.line(`export EDP_TOKEN=${shellWord(token)}`);
    ctx.output.line(`export EDP_WORKSPACE=${ws}`);
  } else {
    ctx.output.line(token);
  }
}
