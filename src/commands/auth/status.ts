import { tokenExpiresAt } from '../../api/auth.js';
import { AuthRequiredError, ApiError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { Opts } from '../app.js';

export async function runStatus(ctx: Context, _args: unknown[], opts: Opts): Promise<number> {
  const creds = ctx.credentials();
  const profile = ctx.profile();
  const baseUrl = ctx.baseUrl();
  const now = Date.now();
  const source =
    ctx.env.EDP_TOKEN ? 'EDP_TOKEN (environment)'
    : ctx.env.EDP_USERNAME !== undefined || ctx.env.EDP_PASSWORD !== undefined ? 'EDP_USERNAME/EDP_PASSWORD (environment)'
    : creds.sessionId ? 'cookie session'
    : profile.username ? `profile "${ctx.profileName}"`
    : 'none';
  const tokens = Object.entries(profile.tokens ?? {}).map(([ws, t]) => ({
    workspace_id: ws,
    expires_at: new Date(tokenExpiresAt(t)).toISOString(),
    expired: tokenExpiresAt(t) <= now,
  }));
  let check: 'valid' | 'rejected' | 'unreachable' | 'not checked' = 'not checked';
  let problem: unknown;
  if (!opts.offline && creds.username && creds.password) {
    const api = await ctx.api();
    try {
      await api.client.request({ method: 'GET', path: '/api/v3/workspaces', query: { page: 1, page_size: 1 }, auth: 'basic' });
      check = 'valid';
    } catch (err) {
      problem = err;
      check = err instanceof ApiError && err.status === 401 ? 'rejected' : 'unreachable';
    }
  }
  const status = {
    profile: ctx.profileName,
    base_url: baseUrl,
    username: creds.username ?? null,
    credentials: source,
    credentials_check: check,
    workspace: ctx.workspace() ?? null,
    config_file: ctx.config.file,
    tokens,
  };
  if (ctx.output.machine) ctx.output.json(status);
  else {
    await ctx.output.object(status, [
      ['profile', status.profile],
      ['service', status.base_url],
      ['user', status.username ?? '(none)'],
      ['credentials', source],
      ['check', check],
      ['workspace', status.workspace ?? '(none)'],
      ['config file', status.config_file],
      ['cached tokens', tokens.length === 0 ? '(none)' : tokens.map((t) => `workspace ${t.workspace_id} ${t.expired ? 'expired' : `until ${t.expires_at}`}`).join('; ')],
    ]);
  }
  if (source === 'none') throw new AuthRequiredError('not logged in: run `edp auth login`, or set EDP_USERNAME and EDP_PASSWORD');
  if (check === 'rejected') throw new AuthRequiredError('the service refused the stored credentials (401)');
  if (check === 'unreachable') throw problem;
  return 0;
}

export async function runLogout(ctx: Context): Promise<number> {
  const had = ctx.config.profileNames().includes(ctx.profileName);
  if (had) await ctx.config.updateProfile(ctx.profileName, () => undefined);
  ctx.output.success(had ? `Removed the credentials and tokens of profile "${ctx.profileName}"` : `Profile "${ctx.profileName}" held no credentials`);
  return 0;
}
