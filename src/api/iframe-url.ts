import { unknownWorkspaceWhere } from '../util/suggest.js';
import { ApiError, UnknownWorkspaceError } from '../errors.js';
import { jsonInteger } from '../util/json.js';
import type { iframeUrlRequest, Sent } from '../contract/requests.js';
import type { Service } from './service.js';

/** The embeddable iframe URL for connecting a data source or destination: an agency operation (Basic). */

export interface IframeRequest {
  workspaceId: string;
  type?: 'datasource' | 'destination' | undefined;
  name?: string | undefined;
  showConnectorsList?: boolean | undefined;
  showDatasources?: boolean | undefined;
  showAccounts?: boolean | undefined;
  showAccountsOnlyOnAuth?: boolean | undefined;
}

export async function getIframeUrl(api: Service, req: IframeRequest): Promise<Record<string, unknown>> {
  const body: Sent<typeof iframeUrlRequest> = { workspace_id: jsonInteger(req.workspaceId) };
  if (req.type) body.type = req.type;
  if (req.name) body.name = req.name;
  const res = await api
    .call<'iframe.url', Record<string, unknown>>('iframe.url', {
      body,
      query: {
        show_connectors_list: req.showConnectorsList,
        show_datasources: req.showDatasources,
        show_accounts: req.showAccounts,
        show_accounts_only_on_auth: req.showAccountsOnlyOnAuth,
      },
    })
    .catch((err: unknown) => {
      // A workspace the agency does not have: as the token request reports it (exit 5, not a raw 400).
      if (
        err instanceof ApiError &&
        err.status === 400 &&
        ('workspace_id' in err.details || /^workspace_id\b/.test(err.message))
      )
        throw new UnknownWorkspaceError(req.workspaceId, err, unknownWorkspaceWhere(req.workspaceId));
      throw err;
    });
  return res.data;
}

/**
 * Parameters the caller adds to the returned URL (the endpoint does not emit them), spelled
 * as the contract spells them (docs/contract-rules.md, Iframe URL): `show_account_selection=True`,
 * `use_default_auth=True`.
 */
export function decorateIframeUrl(
  url: string,
  opts: { showAccountSelection?: boolean; useDefaultAuth?: boolean },
): string {
  const u = new URL(url);
  if (opts.showAccountSelection) u.searchParams.set('show_account_selection', 'True');
  if (opts.useDefaultAuth) u.searchParams.set('use_default_auth', 'True');
  return u.toString();
}
