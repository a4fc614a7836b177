import type { ReceivedWith } from '../contract/answers.js';
import type { linksCreate, Sent } from '../contract/requests.js';
import type { ListOptions, Service } from './service.js';

/** One-time external authentication links of a data source: workspace operations (Bearer). */

/** External authentication link; `status` is an open set: not_used, used, expired, revoked_manually. */
/** A link: its id and status, and (the vendor's documentation) the address it went to and its URL. */
export type ExternalAuthLink = ReceivedWith<'ExternalAuthLink', { email?: string; url?: string }>;

/**
 * One link per address of `to_emails`; `send_email` false: the caller delivers the links;
 * `requested_by`: an active agency user who is a member of the workspace or the agency owner.
 */
export type CreateLinksRequest = Sent<typeof linksCreate>;

/** Creates one link per address. Not repeatable: a second call makes new links. */
export async function createLinks(
  api: Service,
  ws: string,
  datasource: string,
  req: CreateLinksRequest,
): Promise<ExternalAuthLink[]> {
  const body: CreateLinksRequest = { to_emails: req.to_emails, send_email: req.send_email };
  if (req.requested_by) body.requested_by = req.requested_by;
  const res = await api.call('links.create', { params: { datasource_name: datasource }, workspaceId: ws, body });
  // "201 links": a list; an envelope or a single link is accepted as well.
  const data = res.data as ExternalAuthLink[] | { results?: ExternalAuthLink[] } | ExternalAuthLink;
  if (Array.isArray(data)) return data;
  if (data && Array.isArray((data as { results?: unknown }).results))
    return (data as { results: ExternalAuthLink[] }).results;
  return data ? [data as ExternalAuthLink] : [];
}

/** Newest first; the service allows pages of up to 1000 links, so few requests are needed. */
export function listLinks(
  api: Service,
  ws: string,
  datasource: string,
  opts?: ListOptions,
): AsyncGenerator<ExternalAuthLink> {
  const pageSize = Math.max(1, Math.min(1000, opts?.limit ?? 1000));
  return api.list('links.list', { params: { datasource_name: datasource }, workspaceId: ws, pageSize }, opts);
}

/** Revoking is idempotent (200 with the existing revocation data), so a lost answer may be repeated. */
export async function revokeLink(
  api: Service,
  ws: string,
  datasource: string,
  linkId: string,
): Promise<ExternalAuthLink> {
  return api.read('links.revoke', { params: { datasource_name: datasource, id: linkId }, workspaceId: ws });
}
