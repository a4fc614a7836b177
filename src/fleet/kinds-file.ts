import { DESTINATION_PARAMS, S3_READ_ONLY } from '../contract/destinations.js';
import { didYouMean } from '../util/did-you-mean.js';
import type { Scope } from './scope.js';

/**
 * The fleet file's extracts, destinations, accounts and tables (docs/guide.md, Fleet as code),
 * as typed entries. Each section left out of the file is not managed: nothing of that kind is
 * created, changed or listed.
 */

export interface ExtractEntry {
  /** an extraction template of the data source, by title or id */
  template: string;
  dataSource: string;
  /** account selectors: all-active, remote:ID, an id or a title */
  accounts: string[];
  /** left out: each extract keeps its own */
  schedule?: string | undefined;
  /** left out: each extract stays paused or running as it is */
  paused?: boolean | undefined;
  workspaces?: Scope | undefined;
}

export interface DestinationEntry {
  destination: string;
  title: string;
  /** `connection_params`; a value resolved from the environment is an EnvSecret (values.ts) */
  params: Record<string, unknown>;
  workspaces?: Scope | undefined;
}

export interface AccountsEntry {
  dataSource: string;
  /** the accounts enabled for extraction, every other account of the data source disabled */
  enabled: string[];
  workspaces?: Scope | undefined;
}

export interface TableEntry {
  /** a data table by title (every table of that title in the workspace) or id */
  table: string;
  selectedFields: string[];
  workspaces?: Scope | undefined;
}

export interface FleetKinds {
  extracts: ExtractEntry[];
  destinations: DestinationEntry[];
  accounts: AccountsEntry[];
  tables: TableEntry[];
  manages: { extracts: boolean; destinations: boolean; accounts: boolean; tables: boolean };
}

export const NO_KINDS: FleetKinds = {
  extracts: [],
  destinations: [],
  accounts: [],
  tables: [],
  manages: { extracts: false, destinations: false, accounts: false, tables: false },
};

/** The sections as the schema (kinds-schema.ts) leaves them. */
export interface KindsDocument {
  extracts?:
    | Array<{
        template: string;
        data_source: string;
        accounts: string[];
        schedule?: string | undefined;
        paused?: boolean | undefined;
        workspaces?: Scope | undefined;
      }>
    | undefined;
  destinations?:
    | Array<{ destination: string; title: string; params: Record<string, unknown>; workspaces?: Scope | undefined }>
    | undefined;
  accounts?:
    Array<{ data_source: string; enabled: Array<string | number>; workspaces?: Scope | undefined }> | undefined;
  tables?: Array<{ table: string; selected_fields: string[]; workspaces?: Scope | undefined }> | undefined;
}

export type Problem = { path: Array<string | number>; message: string };

/** An entry's key and scope, for the fleet file's check that no two entries claim one thing in one workspace. */
export type Claim = { key: string; workspaces?: Scope | undefined };

/**
 * The typed entries, with the problems only the whole file shows: two entries of one key for
 * the same workspace (`overlap`, the fleet file's own check), a destination parameter the
 * destination does not take or one the service sets.
 */
export function parseKinds(
  f: KindsDocument,
  overlap: (what: string, claims: Claim[]) => void,
  problems: Problem[],
): FleetKinds {
  const kinds: FleetKinds = {
    extracts: (f.extracts ?? []).map((e) => ({
      template: e.template,
      dataSource: e.data_source,
      accounts: e.accounts,
      schedule: e.schedule,
      paused: e.paused,
      workspaces: e.workspaces,
    })),
    destinations: (f.destinations ?? []).map((d) => ({
      destination: d.destination,
      title: d.title,
      params: d.params,
      workspaces: d.workspaces,
    })),
    accounts: (f.accounts ?? []).map((a) => ({
      dataSource: a.data_source,
      enabled: a.enabled.map(String),
      workspaces: a.workspaces,
    })),
    tables: (f.tables ?? []).map((t) => ({
      table: t.table,
      selectedFields: [...new Set(t.selected_fields)],
      workspaces: t.workspaces,
    })),
    manages: {
      extracts: f.extracts !== undefined,
      destinations: f.destinations !== undefined,
      accounts: f.accounts !== undefined,
      tables: f.tables !== undefined,
    },
  };
  overlap(
    'extracts',
    kinds.extracts.map((e) => ({ key: `${e.template} (${e.dataSource})`, workspaces: e.workspaces })),
  );
  overlap(
    'destinations',
    kinds.destinations.map((d) => ({ key: `${d.destination} "${d.title}"`, workspaces: d.workspaces })),
  );
  overlap(
    'accounts',
    kinds.accounts.map((a) => ({ key: a.dataSource, workspaces: a.workspaces })),
  );
  overlap(
    'tables',
    kinds.tables.map((t) => ({ key: t.table, workspaces: t.workspaces })),
  );
  kinds.destinations.forEach((d, i) => {
    // The parameters of the destinations the contract (S3) or the sandbox names; another destination's are the service's to judge.
    const known = DESTINATION_PARAMS[d.destination]?.known;
    for (const name of Object.keys(d.params)) {
      if ((S3_READ_ONLY as readonly string[]).includes(name) && d.destination === 's3')
        problems.push({ path: ['destinations', i, 'params', name], message: 'is set by the service (read-only)' });
      else if (known && !known.includes(name)) {
        const near = didYouMean(name, [...known]);
        problems.push({
          path: ['destinations', i, 'params', name],
          message: `not a ${d.destination} parameter${near ? ` (${near})` : ''}; known: ${known.join(', ')}`,
        });
      }
    }
  });
  kinds.accounts.forEach((a, i) => {
    if (a.enabled.includes('all-active') && a.enabled.length > 1)
      problems.push({
        path: ['accounts', i, 'enabled'],
        message: 'all-active already names every active account; give it alone',
      });
  });
  return kinds;
}

/** Every entry of the sections, for the workspaces the file names. */
export function kindsEntries(k: FleetKinds): Array<{ workspaces?: Scope | undefined }> {
  return [...k.extracts, ...k.destinations, ...k.accounts, ...k.tables];
}

/**
 * The document form of the sections (what export writes), in the order docs/guide.md shows
 * them. Secret values are never in it: export has none, and a value from the environment is
 * written as its `${env.NAME}` reference by whoever wrote the file.
 */
export function kindsDocument(
  k: FleetKinds,
  ws: (s: Scope | undefined) => Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (k.manages.extracts)
    out.extracts = k.extracts.map((e) => ({
      template: e.template,
      data_source: e.dataSource,
      accounts: e.accounts,
      ...(e.schedule !== undefined ? { schedule: e.schedule } : {}),
      ...(e.paused !== undefined ? { paused: e.paused } : {}),
      ...ws(e.workspaces),
    }));
  if (k.manages.destinations)
    out.destinations = k.destinations.map((d) => ({
      destination: d.destination,
      title: d.title,
      params: d.params,
      ...ws(d.workspaces),
    }));
  if (k.manages.accounts)
    out.accounts = k.accounts.map((a) => ({ data_source: a.dataSource, enabled: a.enabled, ...ws(a.workspaces) }));
  if (k.manages.tables)
    out.tables = k.tables.map((t) => ({ table: t.table, selected_fields: t.selectedFields, ...ws(t.workspaces) }));
  return out;
}
