import { tokenExpiresAt } from '../../api/auth.js';
import type { Context } from '../../context.js';
import { jsonInteger } from '../../util/json.js';
import type { TokenOptions } from './command.js';

export async function runToken(_opts: TokenOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const token = await api.auth.token(ws, api.client);
  const cached = api.auth.cachedToken(ws);
  if (ctx.output.machine) {
    ctx.output.json({
      token,
      workspace_id: jsonInteger(ws),
      expires_at: cached ? new Date(tokenExpiresAt(cached)).toISOString() : null,
    });
  } else {
    ctx.output.line(token);
  }
}
