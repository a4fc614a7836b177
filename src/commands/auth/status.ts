import { tokenExpiresAt } from '../../api/auth.js';
import type { Credentials } from '../../config/credentials.js';
import { DEFAULT_BASE_URL } from '../../config/store.js';
import { AuthRequiredError, ApiError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { StatusOptions } from './command.js';
import { displayUrl } from '../../util/display-url.js';
import { suggest } from '../../util/suggest.js';
import { credentialsNextStep } from '../../output/next-steps.js';

type Kind = 'basic' | 'token' | 'cookie session';
type Check = 'valid' | 'rejected' | 'unreachable' | 'not checked';

/** Where the credentials in use come from, in words (never a secret). */
function describeSource(ctx: Context, creds: Credentials): string {
  if (creds.source === 'env') {
    const vars = [
      ...(creds.token ? ['EDP_TOKEN'] : []),
      ...(creds.username !== undefined || creds.password !== undefined ? ['EDP_USERNAME/EDP_PASSWORD'] : []),
      ...(creds.sessionId ? ['EDP_SESSION_ID'] : []),
    ];
    return `environment (${vars.join(', ')})`;
  }
  return creds.username || creds.sessionId ? `profile "${ctx.settings.profile.value}"` : 'none';
}

/**
 * The kinds of credentials this run would send: Basic for agency operations; for workspace
 * operations EDP_TOKEN, else a cookie session, else tokens issued with the Basic credentials.
 */
function kindsInUse(creds: Credentials): Kind[] {
  const kinds: Kind[] = [];
  if (creds.username || creds.password) kinds.push('basic');
  if (creds.token) kinds.push('token');
  else if (creds.sessionId) kinds.push('cookie session');
  return kinds;
}

/**
 * `auth status --all`: every profile of the config file, read from the file alone (nothing is
 * sent): name, user name, service address and default workspace, never a password or session.
 */
async function runStatusAll(ctx: Context): Promise<void> {
  const config = ctx.config.read();
  const profiles = Object.entries(config.profiles ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, p]) => ({
      profile: name,
      active: name === ctx.settings.profile.value,
      username: typeof p.username === 'string' ? p.username : null,
      base_url: typeof p.base_url === 'string' ? displayUrl(p.base_url) : null,
      workspace: typeof p.workspace === 'string' || typeof p.workspace === 'number' ? String(p.workspace) : null,
      logged_in: !!((p.username && p.password) || p.session_id),
    }));
  await ctx.output.list(
    profiles,
    [
      { header: 'PROFILE', value: (p) => (p.active && ctx.output.stdoutIsTTY ? `${p.profile} *` : p.profile) },
      { header: 'USER', value: (p) => p.username ?? '' },
      { header: 'SERVICE', value: (p) => p.base_url ?? `${DEFAULT_BASE_URL} (default)` },
      { header: 'WORKSPACE', value: (p) => p.workspace ?? '' },
      { header: 'LOGGED IN', value: (p) => p.logged_in },
    ],
    { empty: `No profiles in ${ctx.config.file}: run \`${suggest(['auth', 'login'])}\`` },
  );
}

export async function runStatus(opts: StatusOptions, ctx: Context): Promise<void> {
  if (opts.all) return runStatusAll(ctx);
  const creds = ctx.credentials();
  const baseUrl = displayUrl(ctx.settings.baseUrl().value);
  const baseUrlSource = ctx.settings.setting('base_url').source;
  const workspace = ctx.settings.workspace()?.value;
  const source = describeSource(ctx, creds);
  const kinds = kindsInUse(creds);
  const api = await ctx.api();
  const now = ctx.now();

  // Each kind in use is checked with the service by a light read that needs exactly it.
  const checks: Partial<Record<Kind, Check>> = {};
  const problems: unknown[] = [];
  const probes: Record<Kind, () => Promise<unknown>> = {
    basic: () => api.call('workspaces.list', { query: { page: 1, page_size: 1 }, expect: 'page' }),
    token: () => api.call('datasources.list', { workspaceId: workspace, expect: 'page' }),
    'cookie session': () => api.call('datasources.list', { workspaceId: workspace, expect: 'page' }),
  };
  for (const kind of kinds) {
    const incomplete = kind === 'basic' && !(creds.username && creds.password);
    // A cookie session is checked in a workspace (the contract's X-IM-WORKSPACE-ID).
    if (opts.offline || incomplete || (kind === 'cookie session' && !workspace)) {
      checks[kind] = 'not checked';
      continue;
    }
    try {
      await probes[kind]();
      checks[kind] = 'valid';
    } catch (err) {
      const refused = err instanceof ApiError && err.status === 401;
      checks[kind] = refused ? 'rejected' : 'unreachable';
      if (!refused) problems.push(err);
    }
  }
  const results = Object.values(checks);
  const check: Check =
    results.length === 0
      ? 'not checked'
      : results.includes('rejected')
        ? 'rejected'
        : results.includes('unreachable')
          ? 'unreachable'
          : results.every((r) => r === 'valid')
            ? 'valid'
            : 'not checked';

  const tokens = (await api.auth.cachedTokens()).map((t) => ({
    workspace_id: t.workspace_id,
    expires_at: new Date(tokenExpiresAt(t)).toISOString(),
    expired: tokenExpiresAt(t) <= now,
  }));
  const status = {
    profile: ctx.settings.profile.value,
    base_url: baseUrl,
    base_url_source: baseUrlSource,
    username: creds.username ?? null,
    credentials: source,
    credentials_source: source === 'none' ? 'none' : creds.source,
    credentials_kind: kinds,
    credentials_check: check,
    checks,
    workspace: workspace ?? null,
    config_file: ctx.config.file,
    tokens,
  };
  if (ctx.output.machine) ctx.output.json(status);
  else {
    await ctx.output.object(status, [
      ['profile', status.profile],
      ['service', `${status.base_url} (${baseUrlSource})`],
      ['user', status.username ?? '(none)'],
      ['credentials', source],
      ['kind', kinds.length === 0 ? '(none)' : kinds.join(', ')],
      ['check', kinds.length > 1 ? kinds.map((k) => `${k} ${checks[k]}`).join(', ') : check],
      ['workspace', status.workspace ?? '(none)'],
      ['config file', status.config_file],
      [
        'cached tokens',
        tokens.length === 0
          ? '(none)'
          : tokens
              .map((t) => `workspace ${t.workspace_id} ${t.expired ? 'expired' : `until ${t.expires_at}`}`)
              .join('; '),
      ],
    ]);
  }
  if (kinds.length === 0) throw new AuthRequiredError(`not logged in: ${credentialsNextStep(false)}`);
  if (kinds.includes('basic') && !(creds.username && creds.password)) {
    throw new AuthRequiredError(`incomplete Basic credentials from ${source}: set both the user name and the password`);
  }
  const rejected = kinds.filter((k) => checks[k] === 'rejected');
  if (rejected.length > 0)
    throw new AuthRequiredError(
      `the service refused the credentials in use (${rejected.join(', ')}; 401), from ${source}`,
    );
  if (problems.length > 0) throw problems[0];
}
