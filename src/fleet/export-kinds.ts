import { listDataSources } from '../api/datasources.js';
import { listDestinations } from '../api/destinations.js';
import type { Service } from '../api/service.js';
import { DESTINATION_PARAMS, S3_READ_ONLY } from '../contract/destinations.js';
import { collect } from '../util/collect.js';
import { idText } from '../util/json.js';
import type { AccountsEntry, DestinationEntry, ExtractEntry, TableEntry } from './kinds-file.js';
import { accountText, sourceAccountsReader } from './plan/accounts.js';
import { destinationReader } from './plan/destinations.js';
import { extractAccount, templateOfExtract } from './plan/extracts.js';
import { listTemplates } from '../api/extract-templates.js';
import { listExtracts } from '../api/extracts.js';
import { selectionOf, tableReader } from './plan/tables.js';

/**
 * One workspace's extracts, destination connections, accounts and data tables as fleet file
 * entries, read so that `plan` on the export reports no change: each as the planners match it
 * (plan/extracts.ts, destinations.ts, accounts.ts, tables.ts). Secret parameters are never
 * returned by the service, so never exported.
 */
export interface KindsRead {
  extracts: ExtractEntry[];
  destinations: DestinationEntry[];
  accounts: AccountsEntry[];
  tables: TableEntry[];
}

export async function exportKinds(api: Service, ws: string, warn: (text: string) => void): Promise<KindsRead> {
  const read = sourceAccountsReader(api, ws);
  // Accounts are named by their remote ids, the same in every workspace.
  const readSource = (ds: string) => read(ds).then((s) => s.withRemotes());
  const readDestinations = destinationReader(api, ws);
  const readTables = tableReader(api, ws);
  const [sources, destinations, tables, extractsRead] = await Promise.all([
    collect(listDataSources(api, ws)).then((all) => all.map((d) => String(d.name))),
    collect(listDestinations(api, ws)).then((all) => all.map((d) => d.name)),
    readTables.list(),
    collect(listExtracts(api, ws)),
  ]);
  // Templates are read only for the data sources that have extracts.
  const extracting = new Set(extractsRead.map((e) => String(e.datasource_name ?? e.template?.datasource_name ?? '')));
  const [accounts, extracts, destinationEntries, tableEntries] = await Promise.all([
    Promise.all(
      sources.map(async (ds): Promise<AccountsEntry[]> => {
        const s = await readSource(ds);
        if (s.connections.length === 0) return [];
        const enabled = s.accounts.filter((a) => a.account.enabled_for_embedded_extraction === true);
        const active = s.accounts.filter((a) => a.account.is_active);
        const allActive =
          active.length > 0 && enabled.length === active.length && enabled.every((a) => a.account.is_active);
        return [{ dataSource: ds, enabled: allActive ? ['all-active'] : enabled.map(accountText) }];
      }),
    ),
    Promise.all(
      sources.map(async (ds): Promise<ExtractEntry[]> => {
        if (!extracting.has(ds)) return [];
        const all = extractsRead.filter((e) => String(e.datasource_name ?? e.template?.datasource_name ?? '') === ds);
        const [templates, s] = await Promise.all([collect(listTemplates(api, ws, ds)), readSource(ds)]);
        const byTemplate = new Map<string, typeof all>();
        for (const e of all) {
          const t = templateOfExtract(e);
          if (t === undefined) continue;
          byTemplate.set(t, [...(byTemplate.get(t) ?? []), e]);
        }
        const entries: ExtractEntry[] = [];
        for (const [templateId, own] of byTemplate) {
          const t = templates.find((x) => idText(x.id) === templateId);
          if (!t) {
            warn(
              `workspace ${ws}: the template of extract ${idText(own[0]!.id)} is not among the ${ds} templates; left out of the file`,
            );
            continue;
          }
          const titled = t.title !== undefined && templates.filter((x) => x.title === t.title).length === 1;
          const accountsOf = own.map((e) => s.accounts.find((a) => a.id === extractAccount(e)));
          if (accountsOf.some((a) => a === undefined))
            warn(
              `workspace ${ws}: some ${ds} extracts of template ${templateId} pull accounts the connections no longer list; left out of the entry`,
            );
          const named = accountsOf.filter((a) => a !== undefined);
          const active = s.accounts.filter((a) => a.account.is_active);
          const allActive =
            active.length > 0 &&
            named.length === active.length &&
            named.every((a) => a.account.is_active) &&
            new Set(named).size === named.length;
          const schedules = new Set(own.map((e) => (e as { schedule?: unknown }).schedule));
          const paused = new Set(own.map((e) => e.is_paused === true));
          entries.push({
            template: titled ? t.title! : templateId,
            dataSource: ds,
            accounts: allActive ? ['all-active'] : [...new Set(named.map(accountText))],
            ...(schedules.size === 1 && typeof [...schedules][0] === 'string'
              ? { schedule: [...schedules][0] as string }
              : {}),
            ...(paused.size === 1 ? { paused: [...paused][0]! } : {}),
          });
        }
        return entries;
      }),
    ),
    Promise.all(
      destinations.map(async (d): Promise<DestinationEntry[]> => {
        const live = (await readDestinations(d)) ?? [];
        const secrets = DESTINATION_PARAMS[d]?.secrets ?? [];
        const titles = new Set<string>();
        const unique = live.filter((c) => {
          const title = String(c.title ?? '');
          if (!titles.has(title)) return titles.add(title);
          warn(
            `workspace ${ws}: ${d} connection ${idText(c.id)} has the title of another ("${title}"); left out of the file`,
          );
          return false;
        });
        return unique.map((c) => ({
          destination: d,
          title: String(c.title ?? ''),
          params: Object.fromEntries(
            Object.entries(c.connection_params ?? {}).filter(
              ([k]) => !secrets.includes(k) && !(S3_READ_ONLY as readonly string[]).includes(k),
            ),
          ),
        }));
      }),
    ),
    Promise.all(tables.map((t) => readTables.detail(idText(t.id)))).then((all) => {
      // A table with no field of its provider's (a recipe's output, say) has nothing to select.
      const details = all.filter((t) => selectionOf(t).fields.length > 0);
      return details.map((t): TableEntry => {
        // A title several tables share names them all: by id when their selections differ.
        const same = details.filter((x) => x.title === t.title);
        const one = new Set(same.map((x) => JSON.stringify([...selectionOf(x).selected].sort()))).size === 1;
        return { table: t.title && one ? t.title : idText(t.id), selectedFields: selectionOf(t).selected };
      });
    }),
  ]);
  const seen = new Set<string>();
  return {
    accounts: accounts.flat(),
    extracts: extracts.flat(),
    destinations: destinationEntries.flat(),
    tables: tableEntries.filter((t) => {
      const key = JSON.stringify(t);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  };
}
