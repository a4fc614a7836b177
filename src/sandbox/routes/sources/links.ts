import type { FastifyInstance, FastifyRequest } from 'fastify';
import { linksCreate } from '../../../contract/requests.js';
import { SandboxError, badRequest, forbidden, notFound, validationError } from '../../errors.js';
import { pageUrl, parseBody, pathId, queryOf, requireBearer, sandboxBaseUrl, type IdParams } from '../../http.js';
import { candidatesFor, createConnection, type Candidate } from '../../pages/connect.js';
import type { Store } from '../../store.js';
import type { User } from '../../types.js';
import { connectionView, dataSource } from './model.js';
import { serve } from '../../operations.js';

/** An external authentication link lives 14 days and is used once (docs/contract-rules.md, Limits). */
export const LINK_LIFETIME_MS = 14 * 24 * 3600 * 1000;

export type StoredLinkStatus = 'not_used' | 'used' | 'revoked_manually';

export interface ExternalAuthLink {
  id: number;
  workspace_id: number;
  datasource_name: string;
  email: string;
  token: string;
  /**
   * `expired` is not stored: it follows from the clock (docs/contract-rules.md, External authentication link
   * status: not_used becomes expired after 14 days)
   */
  status: StoredLinkStatus;
  send_email: boolean;
  /** e-mail of the agency user who asked for the link, or null (the whitelabel title is shown) */
  requested_by: string | null;
  created_ms: number;
  used_at: string | null;
  revoked_at: string | null;
  /** the connection the external user created with the link */
  connection_id: number | null;
  /**
   * A status answered in place of the real one, set through the sandbox's control to try a
   * client against a status the contract does not list; the link otherwise behaves as `status`.
   */
  served_status?: string;
}

/** What the sandbox would have e-mailed: invitations (send_email) and confirmations (requested_by). */
export interface SentEmail {
  to: string;
  kind: 'invitation' | 'confirmation';
  subject: string;
  link_ids: number[];
  sent_at: string;
}

declare module '../../types.js' {
  interface State {
    external_auth_links: ExternalAuthLink[];
    outbox: SentEmail[];
  }
}

export function linkStatus(store: Store, link: ExternalAuthLink): string {
  if (link.status === 'not_used' && store.clock.now() >= link.created_ms + LINK_LIFETIME_MS) return 'expired';
  return link.status;
}

export function inviterOf(store: Store, link: ExternalAuthLink): string {
  const user = link.requested_by ? store.state.users.find((u) => u.email === link.requested_by) : undefined;
  return user ? `${user.first_name} ${user.last_name}` : store.state.agency.whitelabel_title;
}

/** Where a link's page is served: this, then the link's token. */
export const LINK_PAGE_PATH = '/connect/';

function linkUrl(request: FastifyRequest | undefined, store: Store, link: ExternalAuthLink): string {
  const base = request ? sandboxBaseUrl(request) : `http://${store.opts.host}:${store.opts.port}`;
  return `${base}${LINK_PAGE_PATH}${link.token}`;
}

export function linkView(store: Store, link: ExternalAuthLink, request?: FastifyRequest): Record<string, unknown> {
  return {
    id: link.id,
    datasource_name: link.datasource_name,
    email: link.email,
    status: link.served_status ?? linkStatus(store, link),
    url: linkUrl(request, store, link),
    send_email: link.send_email,
    requested_by: link.requested_by,
    inviter_title: inviterOf(store, link),
    created_at: new Date(link.created_ms).toISOString(),
    expires_at: new Date(link.created_ms + LINK_LIFETIME_MS).toISOString(),
    used_at: link.used_at,
    revoked_at: link.revoked_at,
    connection_id: link.connection_id,
  };
}

/**
 * `requested_by` must be an active agency user who is a member of the workspace or the agency
 * owner; otherwise 400 and no link is created (docs/contract-rules.md, Versioning 9).
 */
function requester(store: Store, email: string, workspaceId: number): User {
  const user = store.state.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
  if (!user || !user.is_active || !(user.is_agency_owner || user.workspace_ids.includes(workspaceId))) {
    throw validationError([
      {
        field: 'requested_by',
        code: 'invalid',
        message: 'Must be an active agency user who is a member of this workspace or the agency owner.',
      },
    ]);
  }
  return user;
}

export function createLinks(
  store: Store,
  workspaceId: number,
  datasourceName: string,
  body: { to_emails: string[]; send_email: boolean; requested_by?: string | null | undefined },
): ExternalAuthLink[] {
  const user = body.requested_by ? requester(store, body.requested_by, workspaceId) : undefined;
  const now = store.clock.now();
  // One link per address: the same address twice gets one link.
  const seen = new Set<string>();
  const emails = body.to_emails.filter((e) => !seen.has(e.toLowerCase()) && !!seen.add(e.toLowerCase()));
  const links = emails.map((email) => ({
    id: store.nextId('external_auth_link'),
    workspace_id: workspaceId,
    datasource_name: datasourceName,
    email,
    token: store.secret(16),
    status: 'not_used' as const,
    send_email: body.send_email,
    requested_by: user?.email ?? null,
    created_ms: now,
    used_at: null,
    revoked_at: null,
    connection_id: null,
  }));
  store.state.external_auth_links.push(...links);
  const sentAt = new Date(now).toISOString();
  const ds = dataSource(store, datasourceName);
  if (body.send_email) {
    for (const link of links) {
      store.state.outbox.push({
        to: link.email,
        kind: 'invitation',
        subject: `${inviterOf(store, link)} asks you to connect ${ds?.title ?? datasourceName}`,
        link_ids: [link.id],
        sent_at: sentAt,
      });
    }
  }
  if (user) {
    store.state.outbox.push({
      to: user.email,
      kind: 'confirmation',
      subject: `Links sent to connect ${ds?.title ?? datasourceName}`,
      link_ids: links.map((l) => l.id),
      sent_at: sentAt,
    });
  }
  store.changed();
  return links;
}

/**
 * The external user connects through the link: a new connection with the accounts they kept
 * (all those the sign-in found, unless given), the link `used`, and, when an agency user asked
 * for the link, a confirmation to that user (docs/contract-rules.md, Versioning 9).
 */
export function useLink(store: Store, link: ExternalAuthLink, accounts?: Candidate[]): { connectionId: number } {
  const ds = dataSource(store, link.datasource_name);
  const connection = createConnection(store, {
    workspaceId: link.workspace_id,
    datasourceName: link.datasource_name,
    title: `${ds?.title ?? link.datasource_name} (${link.email})`,
    connectedBy: link.email,
    accounts: accounts ?? candidatesFor(link.id),
  });
  link.status = 'used';
  link.used_at = connection.created_at;
  link.connection_id = connection.id;
  if (link.requested_by) {
    store.state.outbox.push({
      to: link.requested_by,
      kind: 'confirmation',
      subject: `${link.email} connected ${ds?.title ?? link.datasource_name}`,
      link_ids: [link.id],
      sent_at: connection.created_at,
    });
  }
  store.changed();
  return { connectionId: connection.id };
}

/** Newest first, `page_size` up to 1000 (larger is capped); a page past the end is empty. */
function linkPage(request: FastifyRequest, items: unknown[]): Record<string, unknown> {
  const q = queryOf(request);
  const askedSize = /^\d+$/.test(q.page_size ?? '') ? Number(q.page_size) : 100;
  const size = Math.min(Math.max(askedSize, 1), 1000);
  const page = /^\d+$/.test(q.page ?? '') && Number(q.page) >= 1 ? Number(q.page) : 1;
  const lastPage = Math.max(1, Math.ceil(items.length / size));
  const url = (n: number) => pageUrl(request, n);
  return {
    count: items.length,
    next: page < lastPage ? url(page + 1) : null,
    previous: page > 1 ? url(Math.min(page - 1, lastPage)) : null,
    results: items.slice((page - 1) * size, page * size),
  };
}

export function linkRoutes(app: FastifyInstance, store: Store): void {
  const links = () => store.state.external_auth_links;

  serve<{ Params: { datasource_name: string } }>(
    app,
    'links.create',
    { config: { body: linksCreate } },
    async (request, reply) => {
      const { workspaceId } = requireBearer(store, request);
      if (!store.state.agency.flags.external_auth_links) {
        throw forbidden('External authentication links are not enabled for this agency.');
      }
      const { datasource_name: name } = request.params;
      if (!dataSource(store, name)) throw badRequest(`Unknown data source "${name}".`);
      const body = parseBody(linksCreate, request.body);
      const created = createLinks(store, workspaceId, name, body);
      return reply.code(201).send(created.map((l) => linkView(store, l, request)));
    },
  );

  // Listing and revoking stay available with the feature flag off: the contract lists 403
  // for create only, and revoking links already sent is what an agency wants then.
  serve<{ Params: { datasource_name: string } }>(app, 'links.list', { config: {} }, async (request) => {
    const { workspaceId } = requireBearer(store, request);
    const { datasource_name: name } = request.params;
    const items = links()
      .filter((l) => l.workspace_id === workspaceId && l.datasource_name === name)
      .sort((a, b) => b.created_ms - a.created_ms || b.id - a.id);
    const page = linkPage(request, items);
    return { ...page, results: (page.results as typeof items).map((l) => linkView(store, l, request)) };
  });

  serve<{ Params: { datasource_name: string; id: string } }>(app, 'links.revoke', async (request) => {
    const { workspaceId } = requireBearer(store, request);
    const { datasource_name: name, id } = request.params;
    const linkId = pathId(id);
    const link = links().find((l) => l.id === linkId && l.workspace_id === workspaceId && l.datasource_name === name);
    if (!link) throw notFound('External authentication link not found.');
    const status = linkStatus(store, link);
    if (status === 'used') throw badRequest('This link has already been used and cannot be revoked.', { status });
    if (status === 'expired') throw badRequest('This link has expired and cannot be revoked.', { status });
    if (status === 'not_used') {
      link.status = 'revoked_manually';
      link.revoked_at = store.clock.iso();
      store.changed();
    }
    // Already revoked: unchanged, 200 with the existing revocation data.
    return linkView(store, link, request);
  });

  // Sandbox control: the status the link is shown with, e.g. one the contract does not list
  // (`{"served_status": "quarantined"}`); null goes back to the real one.
  app.patch<{ Params: IdParams; Body: { served_status?: unknown } | undefined }>(
    '/_sandbox/external-auth-links/:id',
    async (request) => {
      const link = links().find((l) => l.id === pathId(request.params.id));
      if (!link) throw notFound('External authentication link not found.');
      const served = request.body?.served_status;
      if (served === null) delete link.served_status;
      else if (typeof served === 'string' && served !== '') link.served_status = served;
      else throw badRequest('served_status must be a status name, or null for the real status');
      store.changed();
      return linkView(store, link, request);
    },
  );

  // Sandbox control: the external user opens the link and creates the connection.
  app.post<{ Params: IdParams }>('/_sandbox/external-auth-links/:id/use', async (request) => {
    const linkId = pathId(request.params.id);
    const link = links().find((l) => l.id === linkId);
    if (!link) throw notFound('External authentication link not found.');
    const status = linkStatus(store, link);
    if (status !== 'not_used')
      throw new SandboxError(409, 'bad_request', `The link is ${status}; only an unused link can be used.`);
    const { connectionId } = useLink(store, link);
    const connection = store.state.connections.find((c) => c.id === connectionId)!;
    return { link: linkView(store, link, request), connection: connectionView(store, connection) };
  });
}

/** Demo links in the first workspace: one waiting, one revoked. */
export function seedLinks(store: Store): void {
  const ws = store.state.workspaces[0];
  if (!ws || !dataSource(store, 'google_ads')) return;
  createLinks(store, ws.id, 'google_ads', { to_emails: ['client@example.com'], send_email: false });
  const [revoked] = createLinks(store, ws.id, 'google_ads', {
    to_emails: ['former-client@example.com'],
    send_email: false,
  });
  revoked!.status = 'revoked_manually';
  revoked!.revoked_at = store.clock.iso();
}
