import { ApiError, AuthRequiredError, NetworkError, UsageError, withHint } from '../../errors.js';
import { forgetIdentity, profileIdentity } from '../../config/token-cache.js';
import type { Context } from '../../context.js';
import { readAll } from '../../util/stdin.js';
import { parseEmail } from '../../util/validate.js';
import { displayUrl } from '../../util/display-url.js';
import type { LoginOptions } from './command.js';
import { warnIfSentInClear } from '../../output/clear-text.js';

export async function runLogin(opts: LoginOptions, ctx: Context): Promise<void> {
  // A configuration file that cannot be used stops the login before any question or request.
  ctx.config.read();
  const baseUrl = ctx.settings.baseUrl().value;
  // Printed without a password the address may carry; stored as given.
  const shownUrl = displayUrl(baseUrl);
  const baseUrlSource = ctx.settings.setting('base_url').source;
  // Before the password is asked for; the run's client then warns no more.
  warnIfSentInClear(ctx.output, baseUrl, 'password');
  let username = opts.username;
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
    username ??= await input(
      { message: 'Agency user name (e-mail):', validate: (v) => v.trim() !== '' || 'required' },
      pc,
    );
    password ??= await secret({ message: 'Password:', mask: '*', validate: (v) => v !== '' || 'required' }, pc);
  }
  username = parseEmail(username, '--username');

  // Check before saving: a wrong password must not end up in the profile. The check goes
  // through the run's own service client, so that --verbose logs it.
  ctx.useCredentials({ username, password, source: 'login' });
  const api = await ctx.api();
  // Which service is asked, and why it is that one: a new operator's first question.
  ctx.output.info(
    `Logging in to ${shownUrl} as ${username}${baseUrlSource === 'default' ? ' (the default address; --base-url or EDP_BASE_URL sets another)' : ''}`,
  );
  try {
    await api.call('workspaces.list', { query: { page: 1, page_size: 1 }, expect: 'page' });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      throw new AuthRequiredError(`the service at ${shownUrl} refused these credentials (401); nothing was saved`);
    }
    if (err instanceof NetworkError) {
      throw withHint(
        err,
        `no service answered at ${shownUrl}; pass --base-url URL or set EDP_BASE_URL to the service's address (nothing was saved)`,
      );
    }
    throw err;
  }

  const storeBaseUrl = baseUrlSource !== 'profile' && baseUrlSource !== 'default';
  await ctx.config.update((config) => {
    const profiles = (config.profiles ??= {});
    const before = profiles[ctx.settings.profile.value] ?? {};
    // The tokens of the credentials this login replaces are of no further use.
    if (config.token_key_salt && before.username && before.password) {
      forgetIdentity(config, profileIdentity(config.token_key_salt, before.username, before.password));
    }
    profiles[ctx.settings.profile.value] = {
      ...before,
      username,
      password,
      ...(storeBaseUrl ? { base_url: baseUrl } : {}),
    };
  });
  if (ctx.output.machine) ctx.output.json({ profile: ctx.settings.profile.value, base_url: shownUrl, username });
  else
    ctx.output.success(
      `Logged in to ${shownUrl} as ${username} (profile "${ctx.settings.profile.value}", ${ctx.config.file})`,
    );
}
