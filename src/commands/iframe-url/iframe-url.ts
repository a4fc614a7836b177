import { decorateIframeUrl, getIframeUrl } from '../../api/iframe-url.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseChoice } from '../../util/validate.js';
import type { IframeUrlOptions } from './command.js';

export async function runIframeUrl(opts: IframeUrlOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const type =
    opts.type === undefined ? undefined : parseChoice(opts.type, ['datasource', 'destination'] as const, '--type');
  if (opts.name !== undefined && opts.name.trim() === '') throw new UsageError('--name must not be empty');
  // show_accounts_only_on_auth works only when show_accounts is false (docs/contract-rules.md, Iframe URL).
  if (opts.showAccountsOnlyOnAuth && opts.showAccounts !== false) {
    throw new UsageError('--show-accounts-only-on-auth works only together with --no-show-accounts');
  }
  const api = await ctx.api();
  const res = await getIframeUrl(api, {
    workspaceId: ws,
    type,
    name: opts.name,
    showConnectorsList: opts.showConnectorsList,
    showDatasources: opts.showDatasources,
    showAccounts: opts.showAccounts,
    showAccountsOnlyOnAuth: opts.showAccountsOnlyOnAuth,
  });
  const raw =
    typeof res.url === 'string' ? res.url : Object.values(res).find((v) => typeof v === 'string' && /^https?:/.test(v));
  if (typeof raw !== 'string') throw new Error('the answer carried no URL');
  const url = decorateIframeUrl(raw, {
    showAccountSelection: !!opts.showAccountSelection,
    useDefaultAuth: !!opts.useDefaultAuth,
  });
  if (ctx.output.machine) ctx.output.json({ ...res, url });
  else ctx.output.line(url);
}
