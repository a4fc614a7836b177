import type { Service } from '../../api/service.js';
import { suggest } from '../../util/suggest.js';
import type { AccountsEntry, ExtractEntry, FleetKinds, TableEntry } from '../kinds-file.js';
import { sentValue } from '../values.js';
import { planAccounts, sourceAccountsReader, type SourceAccounts } from './accounts.js';
import { destinationReader, planDestinations } from './destinations.js';
import { extractionReader, planExtracts, templateOfExtract, extractAccount } from './extracts.js';
import { liveDigests } from './live.js';
import { missingTable, planTables, tableReader } from './tables.js';
import type { WorkspacePlan } from './types.js';

/**
 * The extracts, destinations, accounts and tables of one workspace's plan. The four are read at
 * once (each reads what its entries name, and nothing for a section the file leaves out), and
 * their changes, blocked items and notes are added to the workspace's plan in that order, after
 * the recipes and endpoints, with a digest of each live object read (a saved plan's check).
 */

export const EXTRACT_FIELDS = [
  'template',
  'account_entity_id',
  'account_embedded_id',
  'schedule',
  'is_paused',
  'pause_reason',
];
export const DESTINATION_FIELDS = ['title', 'connection_params'];
export const ACCOUNT_FIELDS = ['is_active', 'enabled_for_embedded_extraction'];
export const TABLE_FIELDS = ['title', 'selected_fields', 'fields'];

export async function planKinds(
  api: Service,
  ws: string,
  k: FleetKinds,
  /** the entries of a section that apply to the workspace, their values resolved there */
  of: <E extends object>(list: readonly E[]) => E[],
  sendSecrets: boolean,
): Promise<Pick<WorkspacePlan, 'changes' | 'blocked' | 'notes' | 'live'>> {
  const [accounts, destinations, extracts, tables] = [1, 2, 3, 4].map(() => emptyWorkspacePlan(ws));
  const readSource = sourceAccountsReader(api, ws);
  const readExtraction = extractionReader(api, ws);
  const readDestinations = destinationReader(api, ws);
  const readTables = tableReader(api, ws);
  // Only a destination's parameters may hold a secret, which its planner shows by name; the
  // other entries are planned with what is sent.
  const extractEntries = of(k.extracts).map((e) => sentValue(e) as ExtractEntry);
  const accountEntries = of(k.accounts).map((e) => sentValue(e) as AccountsEntry);
  const destinationEntries = of(k.destinations);
  const tableEntries = of(k.tables).map((e) => sentValue(e) as TableEntry);
  const [, , , missing] = await Promise.all([
    planAccounts(ws, accountEntries, readSource, accounts),
    planDestinations(ws, destinationEntries, readDestinations, sendSecrets, destinations),
    planExtracts(ws, extractEntries, readExtraction, readSource, extracts),
    planTables(ws, tableEntries, readTables, tables),
  ]);
  const creates = extracts.changes.some((c) => c.resource === 'extract' && c.action === 'create');
  for (const entry of missing) missingTable(ws, entry, creates, tables);

  // What the plan was computed from: every object of the kinds read.
  const sources = await Promise.all(
    [...new Set([...accountEntries, ...extractEntries].map((e) => e.dataSource))].map((ds) => readSource(ds)),
  );
  const live = {
    ...liveDigests(
      'account',
      sources.flatMap((s: SourceAccounts) => s.accounts.map((a) => a.account)),
      (a) => a.id,
      ACCOUNT_FIELDS,
    ),
    ...liveDigests(
      'extract',
      (await Promise.all([...new Set(extractEntries.map((e) => e.dataSource))].map(readExtraction))).flatMap((x) =>
        x.extracts.map((e) => ({ ...e, template: templateOfExtract(e), account: extractAccount(e) })),
      ),
      (e) => e.id,
      EXTRACT_FIELDS,
    ),
    ...liveDigests(
      'destination',
      (await Promise.all([...new Set(destinationEntries.map((e) => e.destination))].map(readDestinations))).flatMap(
        (x) => x ?? [],
      ),
      (d) => d.id,
      DESTINATION_FIELDS,
    ),
    ...liveDigests(
      'table',
      tableEntries.length > 0
        ? await Promise.all(
            (await readTables.list())
              .filter((t) => tableEntries.some((e) => e.table === t.title || e.table === String(t.id)))
              .map((t) => readTables.detail(String(t.id))),
          )
        : [],
      (t) => t.id,
      TABLE_FIELDS,
    ),
  };
  const parts = [accounts, destinations, extracts, tables];
  return {
    changes: parts.flatMap((p) => p.changes),
    blocked: parts.flatMap((p) => p.blocked),
    notes: parts.flatMap((p) => p.notes),
    live,
  };
}

/**
 * The kinds of a client's workspace that apply creates: its destination connections are created
 * with it; its extracts, accounts and tables need a data source connected first, which only a
 * person can do (docs/contract-rules.md, What the service does), so they are blocked until then.
 */
export async function planNewKinds(
  title: string,
  k: FleetKinds,
  of: <E extends object>(list: readonly E[]) => E[],
  out: WorkspacePlan,
): Promise<void> {
  const later = (resource: 'extract' | 'account' | 'table', name: string, dataSource: string | undefined) =>
    out.blocked.push({
      resource,
      name,
      code: resource === 'table' ? 'table_not_found' : 'connection_not_found',
      message: `workspace "${title}" is created by this apply and has no ${dataSource ?? 'data source'} connection yet; once it exists, connect it (\`${suggest(['iframe-url', '--type', 'datasource', '--name', dataSource ?? 'NAME'], { workspace: 'ID' })}\`) and apply again`,
    });
  for (const e of of(k.accounts)) if (e.enabled.length > 0) later('account', e.dataSource, e.dataSource);
  for (const e of of(k.extracts)) later('extract', e.template, e.dataSource);
  for (const e of of(k.tables)) later('table', e.table, undefined);
  // Nothing to read in a workspace that does not exist yet: every connection is created.
  await planDestinations(String(out.workspace_id), of(k.destinations), async () => [], false, out);
}

/** The plan of a workspace (of a client's, when given) before anything is found to do in it. */
export function emptyWorkspacePlan(ws: string, client?: WorkspacePlan['client']): WorkspacePlan {
  return {
    workspace_id: ws,
    ...(client ? { client } : {}),
    changes: [],
    blocked: [],
    notes: [],
    unmanaged: [],
    error: null,
    live: {},
    recipes: [],
    endpoints: [],
  };
}
