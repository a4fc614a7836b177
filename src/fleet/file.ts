import { suggest } from '../util/suggest.js';
import type { Readable } from 'node:stream';
import { parsePermission } from '../roles/permission.js';
import type { PermissionPair } from '../api/roles.js';
import type { SourceSpec } from '../recipes/spec.js';
import { UsageError } from '../errors.js';
import { checkDocument, documentError, parseDocument, readSource, type Source } from '../util/document.js';

/**
 * The fleet file (docs/guide.md, Fleet as code): the desired state of an agency.
 * `workspaces` is the default scope; each recipe entry is a `recipes deploy` spec (same keys,
 * same parsing) plus optional `workspaces`; webhooks are matched by url per workspace; roles
 * are the agency's custom roles, matched by title.
 */

export type Scope = string[] | 'all';

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
  workspaces: Scope;
  recipes: RecipeEntry[];
  webhooks: WebhookEntry[];
  roles: RoleEntry[];
  /** a section left out of the file is not managed: nothing of that kind is created, changed or pruned */
  manages: { webhooks: boolean; roles: boolean };
}

/**
 * `-f FILE` (or `-` for standard input): JSON or YAML, read and checked as every file is
 * (util/document.ts), then as a fleet file, before anything is sent (exit 2).
 */
export async function readFleetFile(file: string, stdin: Readable): Promise<FleetFile> {
  const source = await readSource(file, stdin, '--file');
  return parseFleetFile(await parseDocument(source.text, '--file', source.name), '--file', source);
}

/**
 * A fleet file from a parsed document. Every problem is reported at once, each by its field
 * path, with its line and column when the text is given (`source`), exit 2. The schema (zod)
 * is loaded here, only when there is a document to check.
 */
export async function parseFleetFile(doc: unknown, flag: string, source?: Source): Promise<FleetFile> {
  // Loaded here: the saved plan's module reads the plan's, which reads this one.
  const { isSavedPlan } = await import('./saved-plan.js');
  if (isSavedPlan(doc)) throw savedPlanGiven(doc.source.file_name, flag, source);
  const f = await checkDocument(doc, flag, 'fleet file', (await import('./schema.js')).fleetSchema, source);
  const problems: Array<{ path: Array<string | number>; message: string }> = [];
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
      const scope = e.workspaces ?? f.workspaces;
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
  (f.recipes ?? []).forEach((r, i) => {
    const wide = (r.workspaces ?? f.workspaces) === 'all' || (r.workspaces ?? f.workspaces).length > 1;
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
  return {
    workspaces: f.workspaces,
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
  };
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

/** The workspaces an entry applies to, within the fleet's workspaces. */
export function entryWorkspaces(entry: { workspaces?: Scope | undefined }, file: FleetFile, all: string[]): string[] {
  const s = entry.workspaces ?? file.workspaces;
  return s === 'all' ? all : s;
}

/** The document form of a fleet (what export writes), keys in the order docs/guide.md shows them. */
export function fleetDocument(f: FleetFile): Record<string, unknown> {
  const ws = (s: Scope | undefined) => (s === undefined ? {} : { workspaces: s === 'all' ? 'all' : s.map(Number) });
  return {
    workspaces: f.workspaces === 'all' ? 'all' : f.workspaces.map(Number),
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
  };
}
