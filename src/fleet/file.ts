import { suggest } from '../util/suggest.js';
import type { Readable } from 'node:stream';
import { parsePermission } from '../roles/permission.js';
import type { PermissionPair } from '../api/roles.js';
import type { SourceSpec } from '../recipes/spec.js';
import { UsageError } from '../errors.js';
import { checkDocument, documentError, parseDocument, readSource, type Source } from '../util/document.js';
import { closest } from '../util/did-you-mean.js';
import { MALFORMED_REFERENCE, referencesOf, stringsOf } from './values.js';
import { kindsDocument, parseKinds, type FleetKinds } from './kinds-file.js';

/**
 * The fleet file (docs/guide.md, Fleet as code): the desired state of an agency.
 * `workspaces` is the default scope; each recipe entry is a `recipes deploy` spec (same keys,
 * same parsing) plus optional `workspaces`; webhooks are matched by url per workspace; roles
 * are the agency's custom roles, matched by title.
 */

import type { ClientEntry, Scope } from './scope.js';
export type { ClientEntry, Scope } from './scope.js';

export interface RecipeEntry {
  template: string;
  title?: string | undefined;
  syncFrom?: string | undefined;
  sources: SourceSpec[];
  /** explicit scope of this entry; the file's when absent */
  workspaces?: Scope | undefined;
}

export interface WebhookEntry {
  url: string;
  events: string[];
  workspaces?: Scope | undefined;
}

export interface RoleEntry {
  title: string;
  description: string;
  permissions: PermissionPair[];
}

export interface FleetFile {
  /** the default scope of the entries: the file's `workspaces`, else each client's workspace */
  workspaces: Scope;
  clients: ClientEntry[];
  recipes: RecipeEntry[];
  webhooks: WebhookEntry[];
  roles: RoleEntry[];
  /** a section left out of the file is not managed: nothing of that kind is created, changed or pruned */
  manages: { webhooks: boolean; roles: boolean };
  /**
   * The document as read, and where from: what planning finds wrong in it (a title no workspace
   * has, a var a workspace's client lacks) is placed in it as a parse problem is.
   */
  origin?: FileOrigin | undefined;
  /** extracts, destinations, accounts and data tables (kinds-file.ts) */
  kinds: FleetKinds;
}

/**
 * `-f FILE` (or `-` for standard input): JSON or YAML, read and checked as every file is
 * (util/document.ts), then as a fleet file, before anything is sent (exit 2).
 */
export async function readFleetFile(file: string, stdin: Readable, env: Env = {}): Promise<FleetFile> {
  const source = await readSource(file, stdin, '--file');
  return parseFleetFile(await parseDocument(source.text, '--file', source.name), '--file', source, env);
}

/** The environment `${env.NAME}` values are read from. */
export type Env = Readonly<Record<string, string | undefined>>;

export interface FileOrigin {
  document: unknown;
  flag: string;
  source?: Source | undefined;
}

/** Where each entry of a file is in its document (`['recipes', 2]`), for problems found once it is planned. */
const entryPaths = new WeakMap<object, Array<string | number>>();

export function entryPath(entry: object): Array<string | number> | undefined {
  return entryPaths.get(entry);
}

/** The sections whose entries hold values (`${…}` references); `clients` and `workspaces` hold none. */
export const VALUE_SECTIONS = ['recipes', 'webhooks', 'roles', 'extracts', 'destinations', 'accounts', 'tables'];

/** Every entry that has a `workspaces:` scope, of every section. */
export function scopedEntries(file: FleetFile): Array<{ workspaces?: Scope | undefined }> {
  const sections = file as unknown as Record<string, unknown> & { kinds?: Record<string, unknown> };
  return VALUE_SECTIONS.filter((s) => s !== 'roles').flatMap((s) => {
    const list = sections[s] ?? sections.kinds?.[s];
    return Array.isArray(list) ? (list as Array<{ workspaces?: Scope | undefined }>) : [];
  });
}

/** A problem found in a file once it is planned, at its path in the document, as a fleet file error (exit 2). */
export async function fileProblems(
  file: FleetFile,
  problems: Array<{ path: Array<string | number>; message: string; suggestion?: string | null | undefined }>,
): Promise<Error> {
  const { flag, source } = file.origin ?? { flag: '--file' };
  return documentError(`${flag}${source ? ` ${source.name}` : ''} is not a valid fleet file`, problems, source);
}

/**
 * A fleet file from a parsed document. Every problem is reported at once, each by its field
 * path, with its line and column when the text is given (`source`), exit 2. The schema (zod)
 * is loaded here, only when there is a document to check.
 */
export async function parseFleetFile(doc: unknown, flag: string, source?: Source, env: Env = {}): Promise<FleetFile> {
  // Loaded here: the saved plan's module reads the plan's, which reads this one.
  const { isSavedPlan } = await import('./saved-plan.js');
  if (isSavedPlan(doc)) throw savedPlanGiven(doc.source.file_name, flag, source);
  const f = await checkDocument(doc, flag, 'fleet file', (await import('./schema.js')).fleetSchema, source);
  const problems: Array<{ path: Array<string | number>; message: string; suggestion?: string | null }> = [];
  const clients = parseClients(f.clients ?? [], problems);
  // With clients, the entries' default scope may be left out: each client's workspace.
  const defaultScope: Scope = f.workspaces ?? clients.map((c) => c.id ?? `title:${c.title}`);
  if (f.workspaces === undefined && clients.length === 0)
    problems.push({
      path: ['workspaces'],
      message: 'required (the default scope of the entries) unless clients: is given',
    });
  checkSelectors(doc, clients, problems);
  checkReferences(doc, clients, env, problems);
  const roles: RoleEntry[] = (f.roles ?? []).map((r, i) => ({
    title: r.title,
    description: r.description ?? '',
    permissions: r.permissions.map((p, j) => {
      if (typeof p !== 'string') return p;
      try {
        return parsePermission(p, `roles[${i}].permissions[${j}]`);
      } catch (err) {
        // The parser's message starts with the path it was given.
        const message = (err as Error).message.replace(`roles[${i}].permissions[${j}]`, '').replace(/^[:\s]+/, '');
        problems.push({ path: ['roles', i, 'permissions', j], message });
        return { layer: '', permission: '' };
      }
    }),
  }));
  const seen = (what: string, keys: string[]) => {
    const first = new Map<string, number>();
    keys.forEach((k, i) => {
      const at = first.get(k);
      if (at === undefined) first.set(k, i);
      else
        problems.push({
          path: [what, i],
          message: `same as ${what}[${at}] (${k}); name each once, with its workspaces`,
        });
    });
  };
  seen(
    'roles',
    roles.map((r) => r.title),
  );
  // Two entries for one template (or url) in one workspace would contradict each other. Each
  // entry is compared with the first earlier one it shares a workspace with, through what the
  // entries before it claimed: time in proportion to the file, however many entries clash.
  const overlap = (what: string, entries: Array<{ key: string; workspaces?: Scope | undefined }>) => {
    const claims = new Map<string, { any: number; all: number | undefined; workspace: Map<string, number> }>();
    entries.forEach((e, i) => {
      const scope = wholeOrList(e.workspaces ?? defaultScope);
      let claim = claims.get(e.key);
      if (!claim) claims.set(e.key, (claim = { any: i, all: undefined, workspace: new Map() }));
      else {
        let earlier = scope === 'all' ? claim.any : (claim.all ?? i);
        if (scope !== 'all') for (const w of scope) earlier = Math.min(earlier, claim.workspace.get(w) ?? i);
        if (earlier < i)
          problems.push({
            path: [what, i],
            message: `${e.key} is also in ${what}[${earlier}] for the same workspace(s)`,
          });
      }
      if (scope === 'all') claim.all ??= i;
      else for (const w of scope) if (!claim.workspace.has(w)) claim.workspace.set(w, i);
    });
  };
  overlap(
    'recipes',
    (f.recipes ?? []).map((r) => ({ key: r.template, workspaces: r.workspaces })),
  );
  overlap(
    'webhooks',
    (f.webhooks ?? []).map((w) => ({ key: w.url, workspaces: w.workspaces })),
  );
  const kinds = parseKinds(f, overlap, problems);
  (f.recipes ?? []).forEach((r, i) => {
    const entryScope = wholeOrList(r.workspaces ?? defaultScope);
    const wide = entryScope === 'all' || entryScope.length > 1 || entryScope.some((x) => x.startsWith('group:'));
    r.sources.forEach((s, j) => {
      if (s.connection !== undefined && wide)
        problems.push({
          path: ['recipes', i, 'sources', j, 'connection'],
          message: "connection ids belong to one workspace; leave it out (each workspace's connection is found)",
        });
    });
  });
  if (problems.length > 0)
    throw await documentError(`${flag}${source ? ` ${source.name}` : ''} is not a valid fleet file`, problems, source);
  const file: FleetFile = {
    workspaces: defaultScope,
    clients,
    origin: { document: doc, flag, source },
    recipes: (f.recipes ?? []).map((r) => ({
      template: r.template,
      title: r.title,
      syncFrom: r.sync_from_date,
      sources: r.sources.map((s) => ({ dataSource: s.data_source, connection: s.connection, accounts: s.accounts })),
      workspaces: r.workspaces,
    })),
    webhooks: (f.webhooks ?? []).map((w) => ({ url: w.url, events: [...new Set(w.events)], workspaces: w.workspaces })),
    roles,
    manages: { webhooks: f.webhooks !== undefined, roles: f.roles !== undefined },
    kinds,
  };
  // Each entry by its place in the document; the extracts, destinations, accounts and tables are in `kinds`.
  const sections = file as unknown as Record<string, unknown> & { kinds?: Record<string, unknown> };
  for (const section of VALUE_SECTIONS) {
    const entries = sections[section] ?? sections.kinds?.[section];
    if (Array.isArray(entries)) entries.forEach((e: object, i) => entryPaths.set(e, [section, i]));
  }
  return file;
}

/** A list holding `all` is the whole agency. */
function wholeOrList(s: Scope): Scope {
  return s === 'all' || s.includes('all') ? 'all' : s;
}

type Problems = Array<{ path: Array<string | number>; message: string; suggestion?: string | null }>;

function parseClients(
  raw: Array<{
    title: string;
    id?: string | undefined;
    groups?: string[] | undefined;
    vars?: Record<string, unknown> | undefined;
  }>,
  problems: Problems,
): ClientEntry[] {
  const titles = new Map<string, number>();
  const ids = new Map<string, number>();
  return raw.map((c, i) => {
    const sameTitle = titles.get(c.title);
    if (sameTitle !== undefined)
      problems.push({
        path: ['clients', i, 'title'],
        message: `same title as clients[${sameTitle}] (${c.title}); each client is one workspace, named once`,
      });
    else titles.set(c.title, i);
    if (c.id !== undefined) {
      const sameId = ids.get(c.id);
      if (sameId !== undefined)
        problems.push({ path: ['clients', i, 'id'], message: `same workspace as clients[${sameId}] (${c.id})` });
      else ids.set(c.id, i);
    }
    return {
      title: c.title,
      id: c.id,
      groups: [...new Set(c.groups ?? [])],
      vars: Object.fromEntries(Object.entries(c.vars ?? {}).map(([k, v]) => [k, String(v)])),
    };
  });
}

/** Every `workspaces:` list of the document, with its path. */
function scopesOf(doc: unknown): Array<{ path: Array<string | number>; list: unknown[] }> {
  const d = doc as Record<string, unknown>;
  const out: Array<{ path: Array<string | number>; list: unknown[] }> = [];
  if (Array.isArray(d.workspaces)) out.push({ path: ['workspaces'], list: d.workspaces });
  for (const section of VALUE_SECTIONS) {
    const entries = d[section];
    if (Array.isArray(entries))
      entries.forEach((e: unknown, i) => {
        const ws = (e as Record<string, unknown> | null)?.workspaces;
        if (Array.isArray(ws)) out.push({ path: [section, i, 'workspaces'], list: ws });
      });
  }
  return out;
}

/** A `group:NAME` no client has is known from the file alone: refused, with the nearest group. */
function checkSelectors(doc: unknown, clients: ClientEntry[], problems: Problems): void {
  const groups = [...new Set(clients.flatMap((c) => c.groups))];
  for (const { path, list } of scopesOf(doc))
    list.forEach((x, j) => {
      const m = typeof x === 'string' ? /^group:\s*(.+)$/.exec(x.trim()) : null;
      if (!m || groups.includes(m[1]!)) return;
      problems.push({
        path: [...path, j],
        message: groups.length
          ? `no client is in group ${m[1]!} (the groups are ${groups.join(', ')})`
          : `no client is in group ${m[1]!}: groups are given in clients: (groups: [${m[1]!}])`,
        suggestion: closest(m[1]!, groups)[0] ?? null,
      });
    });
}

/**
 * What the file alone tells of its `${…}` references: one that is not a reference, an
 * environment variable that is not set, a var no client has, a var in a role (roles are the
 * agency's: no client's vars apply). Whether each workspace's client has the var is known once
 * the workspaces are (select.ts).
 */
function checkReferences(doc: unknown, clients: ClientEntry[], env: Env, problems: Problems): void {
  const d = doc as Record<string, unknown>;
  const vars = [...new Set(clients.flatMap((c) => Object.keys(c.vars)))];
  for (const section of VALUE_SECTIONS)
    for (const { path, s } of stringsOf(d[section], [section])) {
      const { refs, malformed } = referencesOf(s);
      for (const m of malformed) problems.push({ path, message: `${m} ${MALFORMED_REFERENCE}` });
      for (const r of refs) {
        if (r.kind === 'env' && env[r.name] === undefined)
          problems.push({
            path,
            message: `\${env.${r.name}}: ${r.name} is not set in the environment; set it (its value is sent, never shown or saved)`,
          });
        else if (r.kind === 'var' && section === 'roles')
          problems.push({
            path,
            message: `\${var.${r.name}}: roles are the agency's, so no client's vars apply; write the value, or \${env.NAME}`,
          });
        else if (r.kind === 'var' && !vars.includes(r.name))
          problems.push({
            path,
            message: vars.length
              ? `\${var.${r.name}}: no client has a var ${r.name} (the vars are ${vars.join(', ')})`
              : `\${var.${r.name}}: no client has vars; give them in clients: (vars: {${r.name}: …})`,
            suggestion: closest(r.name, vars)[0] ?? null,
          });
      }
    }
}

/**
 * A plan saved by `edp plan --out` given where a fleet file goes: said as such, with the command
 * that applies it and the fleet file it was planned from, rather than as a fleet file's problems.
 */
function savedPlanGiven(plannedFrom: unknown, flag: string, source?: Source): UsageError {
  const named = source && source.name !== 'standard input' ? source.name : undefined;
  const from = typeof plannedFrom === 'string' && plannedFrom !== '' ? ` (${plannedFrom})` : '';
  return new UsageError(
    `${flag}${source ? ` ${source.name}` : ''} is a plan saved by \`edp plan --out\`, not a fleet file: apply it with \`${suggest(['apply', named ?? 'FILE'])}\`${named ? '' : ' (saved to FILE)'}, or plan again with -f and the fleet file it was planned from${from}`,
  );
}

/** The document form of a fleet (what export writes), keys in the order docs/guide.md shows them. */
export function fleetDocument(f: FleetFile): Record<string, unknown> {
  const ws = (s: Scope | undefined) =>
    s === undefined ? {} : { workspaces: s === 'all' ? 'all' : s.map((w) => (/^\d+$/.test(w) ? Number(w) : w)) };
  return {
    workspaces: f.workspaces === 'all' ? 'all' : f.workspaces.map((w) => (/^\d+$/.test(w) ? Number(w) : w)),
    ...(f.clients.length > 0
      ? {
          clients: f.clients.map((c) => ({
            title: c.title,
            ...(c.id !== undefined ? { id: Number(c.id) } : {}),
            ...(c.groups.length > 0 ? { groups: c.groups } : {}),
            ...(Object.keys(c.vars).length > 0 ? { vars: c.vars } : {}),
          })),
        }
      : {}),
    recipes: f.recipes.map((r) => ({
      template: r.template,
      ...(r.title !== undefined ? { title: r.title } : {}),
      ...(r.syncFrom !== undefined ? { sync_from_date: r.syncFrom } : {}),
      sources: r.sources.map((s) => ({ data_source: s.dataSource, accounts: s.accounts })),
      ...ws(r.workspaces),
    })),
    webhooks: f.webhooks.map((w) => ({ url: w.url, events: w.events, ...ws(w.workspaces) })),
    roles: f.roles.map((r) => ({
      title: r.title,
      description: r.description,
      permissions: r.permissions.map((p) => `${p.layer}:${p.permission}`),
    })),
    ...kindsDocument(f.kinds, ws),
  };
}
