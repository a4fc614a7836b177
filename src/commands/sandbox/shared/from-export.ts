import type { ClientEntry, FleetFile, Scope } from '../../../fleet/file.js';
import type { FleetKinds } from '../../../fleet/kinds-file.js';
import { isEnvSecret } from '../../../fleet/values.js';
import type { FixtureInput } from '../../../sandbox/index.js';

/**
 * `edp sandbox --from EXPORT.yaml`: a fixture shaped like an export (`edp export`, a fleet file)
 * of another service, so that planning that file against the sandbox finds nothing to change.
 * Each key of the file has its converter in CONVERTERS: a key added to the fleet file is one
 * entry there. The sandbox is made from the fixture and knows nothing of fleet files.
 */

/** What of a fleet file (src/fleet/file.ts) the conversion reads: a parsed file is one. */
export type ExportLike = Pick<FleetFile, 'workspaces' | 'recipes' | 'webhooks' | 'roles'> & {
  clients?: Array<Pick<ClientEntry, 'title' | 'id'> & { groups?: string[] | undefined }> | undefined;
  /** extracts, destinations and accounts enabled for extraction, where the file has them */
  kinds?: Partial<Pick<FleetKinds, 'extracts' | 'destinations' | 'accounts'>> | undefined;
};

type FixtureWorkspace = FixtureInput['workspaces'][number];
type Connections = NonNullable<FixtureWorkspace['connections']>;

/** The credentials of the sandbox's chief, as with the demo data: the export does not carry them. */
export const FROM_EXPORT_CHIEF = { username: 'agency@sandbox.local', password: 'sandbox' };

/** A workspace of the fixture being made, with the groups a `group:NAME` selector picks it by. */
interface Place {
  workspace: FixtureWorkspace;
  groups: string[];
}

/** The fixture being made, and how a scope finds its workspaces. */
class Build {
  readonly places: Place[] = [];
  readonly fixture: FixtureInput & Required<Pick<FixtureInput, 'roles' | 'data_sources' | 'recipe_templates'>> = {
    agency: { ...FROM_EXPORT_CHIEF },
    roles: [],
    data_sources: [],
    recipe_templates: [],
    workspaces: [],
  };

  constructor(readonly file: ExportLike) {}

  /** The workspace of an id or title, made when first named. */
  place(ref: { id?: number | undefined; title?: string | undefined }, groups: string[] = []): Place {
    let p = this.places.find(
      (x) =>
        (ref.id !== undefined && x.workspace.id === ref.id) ||
        (ref.title !== undefined && x.workspace.title === ref.title),
    );
    if (!p) {
      p = {
        workspace: { title: ref.title ?? `Workspace ${ref.id!}`, ...(ref.id !== undefined ? { id: ref.id } : {}) },
        groups: [],
      };
      this.places.push(p);
    }
    if (ref.id !== undefined) p.workspace.id = ref.id;
    if (ref.title !== undefined) p.workspace.title = ref.title;
    p.groups.push(...groups.filter((g) => !p!.groups.includes(g)));
    return p;
  }

  /** Names the workspaces a scope's ids and titles give (group selectors name clients, made from `clients`). */
  name(scope: Scope | undefined): void {
    if (scope === undefined || scope === 'all') return;
    for (const s of scope) {
      if (/^\d+$/.test(s)) this.place({ id: Number(s) });
      else if (s.startsWith('title:')) this.place({ title: s.slice('title:'.length) });
    }
  }

  /** The workspaces an entry is in: its own scope, else the file's. */
  scope(own: Scope | undefined): FixtureWorkspace[] {
    const scope = own ?? this.file.workspaces;
    if (scope === 'all') return this.places.map((p) => p.workspace);
    const picked = new Set<FixtureWorkspace>();
    for (const s of scope) {
      if (s === 'all') this.places.forEach((p) => picked.add(p.workspace));
      else if (/^\d+$/.test(s)) picked.add(this.place({ id: Number(s) }).workspace);
      else if (s.startsWith('title:')) picked.add(this.place({ title: s.slice('title:'.length) }).workspace);
      else if (s.startsWith('group:'))
        this.places.filter((p) => p.groups.includes(s.slice('group:'.length))).forEach((p) => picked.add(p.workspace));
    }
    return [...picked];
  }

  dataSource(name: string): void {
    if (!this.fixture.data_sources.some((d) => d.name === name)) this.fixture.data_sources.push({ name });
  }
}

/** An account selector of a fleet file as a remote id: `remote:ID` is one; a title or an id stands as its own. */
function remoteOf(selector: string): string | undefined {
  const s = selector.trim();
  if (s === 'all-active') return undefined;
  return s.startsWith('remote:') ? s.slice('remote:'.length) : s;
}

/** One connection per data source in a workspace, holding every account the file names there. */
function connectionFor(workspace: FixtureWorkspace, dataSource: string): Connections[number] {
  const connections = (workspace.connections ??= []);
  let c = connections.find((x) => x.data_source === dataSource);
  if (!c) connections.push((c = { data_source: dataSource, accounts: [] }));
  return c;
}

/** The accounts of a workspace's connection of a data source, each selector's remote id among them. */
function accountsFor(build: Build, workspace: FixtureWorkspace, dataSource: string, selectors: string[]) {
  build.dataSource(dataSource);
  const accounts = (connectionFor(workspace, dataSource).accounts ??= []);
  for (const sel of selectors) {
    const remote = remoteOf(sel);
    if (remote !== undefined && !accounts.some((a) => String(a.remote_id) === remote))
      accounts.push({ remote_id: remote });
  }
  return accounts;
}

const SCHEDULES = ['hourly', 'daily', 'weekly', 'manual'] as const;

/** A value as the service would be sent it: a value from the environment (`${env.NAME}`) as itself. */
function sentValue(v: unknown): unknown {
  if (isEnvSecret(v)) return v.value;
  if (Array.isArray(v)) return v.map(sentValue);
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sentValue(x)]));
  return v;
}

/**
 * The converters, one per key of the fleet file, in the order they run: those that name
 * workspaces (`name`) all run before any entry is placed (`convert`).
 */
const CONVERTERS: Array<{
  key: keyof ExportLike;
  name?: (build: Build) => void;
  convert?: (build: Build) => void;
}> = [
  {
    key: 'clients',
    name: (b) => {
      for (const c of b.file.clients ?? [])
        b.place({ title: c.title, id: c.id !== undefined ? Number(c.id) : undefined }, c.groups ?? []);
    },
  },
  { key: 'workspaces', name: (b) => b.name(b.file.workspaces) },
  {
    key: 'recipes',
    name: (b) => b.file.recipes.forEach((r) => b.name(r.workspaces)),
    convert: (b) => {
      for (const r of b.file.recipes) {
        const byId = /^\d+$/.test(r.template);
        // A template by title the sandbox may lack: declared, taking the data sources its recipes use
        // (one the sandbox has by that title is used as it is).
        if (!byId) {
          let t = b.fixture.recipe_templates.find((x) => x.title === r.template);
          if (!t) b.fixture.recipe_templates.push((t = { title: r.template, data_sources: [] }));
          for (const s of r.sources) if (!t.data_sources.includes(s.dataSource)) t.data_sources.push(s.dataSource);
        }
        for (const workspace of b.scope(r.workspaces)) {
          for (const s of r.sources) accountsFor(b, workspace, s.dataSource, s.accounts);
          (workspace.recipes ??= []).push({
            template: byId ? Number(r.template) : r.template,
            ...(r.title !== undefined ? { title: r.title } : {}),
            ...(r.syncFrom !== undefined ? { sync_from_date: r.syncFrom } : {}),
            sources: r.sources.map((s) => ({ data_source: s.dataSource, accounts: s.accounts })),
          });
        }
      }
    },
  },
  {
    key: 'webhooks',
    name: (b) => b.file.webhooks.forEach((w) => b.name(w.workspaces)),
    convert: (b) => {
      for (const w of b.file.webhooks)
        for (const workspace of b.scope(w.workspaces))
          (workspace.webhooks ??= []).push({ url: w.url, events: w.events, status: 'active' });
    },
  },
  {
    key: 'kinds',
    name: (b) => {
      const k = b.file.kinds;
      for (const e of [...(k?.extracts ?? []), ...(k?.destinations ?? []), ...(k?.accounts ?? [])])
        b.name(e.workspaces);
    },
    convert: (b) => {
      const k = b.file.kinds;
      for (const d of k?.destinations ?? [])
        for (const workspace of b.scope(d.workspaces))
          (workspace.destinations ??= []).push({
            destination: d.destination,
            title: d.title,
            params: sentValue(d.params) as Record<string, unknown>,
          });
      // Extracts, one per account named (an extraction template the sandbox lacks is the agency's own).
      for (const e of k?.extracts ?? []) {
        if (!/^\d+$/.test(e.template)) {
          const templates = (b.fixture.extraction_templates ??= []);
          if (!templates.some((t) => t.title === e.template))
            templates.push({ title: e.template, data_source: e.dataSource });
        }
        const schedule = SCHEDULES.find((x) => x === e.schedule);
        for (const workspace of b.scope(e.workspaces)) {
          const accounts = accountsFor(b, workspace, e.dataSource, e.accounts);
          const named = new Set(e.accounts.map(remoteOf));
          for (const account of accounts)
            if (named.has(undefined) ? account.active !== false : named.has(String(account.remote_id)))
              (workspace.extracts ??= []).push({
                template: e.template,
                account: account.remote_id,
                ...(schedule ? { schedule } : {}),
                ...(e.paused !== undefined ? { paused: e.paused } : {}),
              });
        }
      }
      // Accounts enabled for extraction: those named, every other account of the data source not
      // (last: after the extracts have added theirs).
      for (const a of k?.accounts ?? [])
        for (const workspace of b.scope(a.workspaces)) {
          const accounts = accountsFor(b, workspace, a.dataSource, a.enabled);
          const named = new Set(a.enabled.map(remoteOf));
          for (const account of accounts)
            account.enabled = named.has(undefined) || named.has(String(account.remote_id));
        }
    },
  },
  {
    key: 'roles',
    convert: (b) => {
      for (const r of b.file.roles)
        b.fixture.roles.push({
          title: r.title,
          description: r.description,
          permissions: r.permissions.map((p) => `${p.layer}:${p.permission}`),
        });
    },
  },
];

/**
 * The fixture of an export. Its workspaces are those the file names (ids, titles, clients),
 * with their ids and titles; a file that names none (`workspaces: all`, every entry in every
 * workspace) gets one. Each workspace gets a connection per data source its recipes use, with
 * the accounts they name by remote id, and an S3 destination when it has none (recipes need one).
 */
export function fixtureFromExport(file: ExportLike): FixtureInput {
  const build = new Build(file);
  for (const c of CONVERTERS) c.name?.(build);
  if (build.places.length === 0) build.place({ id: 101 });
  for (const c of CONVERTERS) c.convert?.(build);
  for (const { workspace } of build.places)
    if ((workspace.destinations ?? []).length === 0)
      workspace.destinations = [{ destination: 's3', title: `S3 warehouse (${workspace.title})` }];
  build.fixture.workspaces = build.places.map((p) => p.workspace);
  return build.fixture;
}
