import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from './errors.js';
import type { Store } from './store.js';

/**
 * The request journal: the last requests the sandbox answered, so that a test can prove what a
 * client sent (method, path, authentication scheme, workspace) and what it got back. It keeps
 * the scheme of the credentials, never the credentials. Controls (/_sandbox/*) are left out.
 */

export type AuthScheme = 'basic' | 'bearer' | 'cookie' | 'none';

export interface JournalEntry {
  /** sequence number, from 1 per sandbox */
  seq: number;
  time: string;
  method: string;
  /** the path as sent, without the query string */
  path: string;
  /** the query string without `?`, empty when none */
  query: string;
  status: number;
  auth: AuthScheme;
  /** the workspace the request acted in, when known: the token's, the cookie session's header, or the path's */
  workspace_id: number | null;
  trace_id: string | null;
}

export const JOURNAL_LIMIT = 1000;

/**
 * An answered request as kept: what it costs nothing to keep (the URL string the request
 * already holds, the time as a number). Split and formatted only when the journal is read.
 */
interface AnsweredRequest {
  seq: number;
  at: number;
  method: string;
  url: string;
  status: number;
  auth: AuthScheme;
  workspace_id: number | null;
  trace_id: string | null;
}

function entryOf(kept: AnsweredRequest): JournalEntry {
  const q = kept.url.indexOf('?');
  return {
    seq: kept.seq,
    time: new Date(kept.at).toISOString(),
    method: kept.method,
    path: q < 0 ? kept.url : kept.url.slice(0, q),
    query: q < 0 ? '' : kept.url.slice(q + 1),
    status: kept.status,
    auth: kept.auth,
    workspace_id: kept.workspace_id,
    trace_id: kept.trace_id,
  };
}

export class RequestJournal {
  private entries: AnsweredRequest[] = [];
  private seq = 0;

  constructor(private readonly limit = JOURNAL_LIMIT) {}

  /** Records an answered request (the hot path: nothing is formatted here); its `seq` is set here. */
  recordAnswered(entry: AnsweredRequest): void {
    entry.seq = ++this.seq;
    this.keep(entry);
  }

  private keep(kept: AnsweredRequest): void {
    this.entries.push(kept);
    // Trimmed in batches rather than by one entry per request.
    if (this.entries.length >= this.limit * 2) this.entries.splice(0, this.entries.length - this.limit);
  }

  /** Oldest first, at most the journal's limit; `limit` keeps the newest that many. */
  list(limit?: number): JournalEntry[] {
    return this.entries
      .slice(Math.max(0, this.entries.length - Math.min(limit ?? this.limit, this.limit)))
      .map(entryOf);
  }

  clear(): void {
    this.entries = [];
  }
}

function authScheme(request: FastifyRequest): AuthScheme {
  const header = request.headers.authorization ?? '';
  if (/^basic\s/i.test(header)) return 'basic';
  if (/^bearer\s/i.test(header)) return 'bearer';
  if (/(?:^|;\s*)dts_session_id=/.test(request.headers.cookie ?? '')) return 'cookie';
  return 'none';
}

function workspaceOf(store: Store, request: FastifyRequest, auth: AuthScheme): number | null {
  if (auth === 'bearer') {
    const token = (request.headers.authorization ?? '').slice(7).trim();
    return store.state.tokens[token]?.workspace_id ?? null;
  }
  if (auth === 'cookie') {
    const header = request.headers['x-im-workspace-id'];
    return typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : null;
  }
  const inPath = /^\/api\/v3\/workspaces\/(\d{1,15})(?:\/|$)/.exec(request.url);
  if (inPath) return Number(inPath[1]);
  const body = request.body as { workspace_id?: unknown } | undefined;
  const fromBody = body && typeof body === 'object' ? Number(String(body.workspace_id ?? '')) : NaN;
  return Number.isSafeInteger(fromBody) && fromBody > 0 ? fromBody : null;
}

export function isControlPath(url: string): boolean {
  return url === '/_sandbox' || url.startsWith('/_sandbox/') || url.startsWith('/_sandbox?');
}

/** Writes one entry for an answered request (also those answered before routing, such as a malformed URL). */
export function journalRequest(
  journal: RequestJournal,
  store: Store,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (isControlPath(request.url)) return;
  const auth = authScheme(request);
  const trace = reply.getHeader('x-im-trace-id');
  journal.recordAnswered({
    seq: 0,
    at: store.clock.now(),
    method: request.method,
    url: request.url,
    status: reply.statusCode,
    auth,
    workspace_id: workspaceOf(store, request, auth),
    trace_id: typeof trace === 'string' ? trace : null,
  });
}

/**
 * The journal's control routes: `GET /_sandbox/requests[?limit=N]`, `DELETE /_sandbox/requests`.
 * Entries are written by the server's onSend hook (server.ts) through `journalRequest`.
 */
export function installJournal(app: FastifyInstance, journal: RequestJournal): RequestJournal {
  app.get<{ Querystring: Record<string, string | undefined> }>('/_sandbox/requests', async (request) => {
    const raw = request.query.limit;
    let limit: number | undefined;
    if (raw !== undefined) {
      if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1) throw badRequest('limit must be a positive integer');
      limit = Number(raw);
    }
    const entries = journal.list(limit);
    return { count: entries.length, limit: JOURNAL_LIMIT, results: entries };
  });

  app.delete('/_sandbox/requests', async (_request, reply) => {
    journal.clear();
    return reply.code(204).send();
  });
  return journal;
}
