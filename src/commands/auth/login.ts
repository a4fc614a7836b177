import { AuthRequiredError, UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import { readAll } from '../../util/stdin.js';
import { parseEmail } from '../../util/validate.js';
import type { Opts } from '../app.js';

export async function runLogin(ctx: Context, _args: unknown[], opts: Opts): Promise<number> {
  const baseUrl = ctx.baseUrl();
  let username: string | undefined = opts.username;
  let password: string | undefined;
  if (opts.passwordStdin) {
    password = (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '');
    if (!password) throw new UsageError('--password-stdin: standard input was empty');
  }
  if (!username || password === undefined) {
    if (!ctx.interactive) {
      throw new UsageError(
        !username
          ? 'missing --username (prompts are off: not a terminal, CI set, or --no-input)'
          : 'missing password: pass --password-stdin and write the password to standard input',
      );
    }
    const { input, password: secret } = await ctx.prompts();
    const pc = ctx.promptContext();
    username ??= await input({ message: 'Agency user name (e-mail):', validate: (v) => v.trim() !== '' || 'required' }, pc);
    password ??= await secret({ message: 'Password:', mask: '*', validate: (v) => v !== '' || 'required' }, pc);
  }
  username = parseEmail(username, '--username');

  // Check before saving: a wrong password must not end up in the profile.
  const { Service } = await import('../../api/service.js');
  const probe = new Service({ baseUrl, timeoutMs: ctx.timeoutMs, credentials: { username, password }, profile: ctx.profileName, signal: ctx.signal });
  try {
    await probe.client.request({ method: 'GET', path: '/api/v3/workspaces', query: { page: 1, page_size: 1 }, auth: 'basic' });
  } catch (err) {
    if (err instanceof Error && 'status' in err && (err as { status: number }).status === 401) {
      throw new AuthRequiredError(`the service at ${baseUrl} refused these credentials (401); nothing was saved`);
    }
    throw err;
  } finally {
    await probe.client.close();
  }

  await ctx.config.updateProfile(ctx.profileName, (p) => ({
    ...p,
    username,
    password,
    ...(ctx.flags.baseUrl || ctx.env.EDP_BASE_URL ? { base_url: baseUrl } : {}),
    // Tokens belong to the previous user.
    tokens: p.username === username ? p.tokens : {},
  }));
  if (ctx.output.machine) ctx.output.json({ profile: ctx.profileName, base_url: baseUrl, username });
  else ctx.output.success(`Logged in to ${baseUrl} as ${username} (profile "${ctx.profileName}", ${ctx.config.file})`);
  return 0;
}
