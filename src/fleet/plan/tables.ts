import { suggest } from '../../util/suggest.js';
import { getTable, listTables, type DataTable } from '../../api/tables.js';
import type { Service } from '../../api/service.js';
import { collect } from '../../util/collect.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { idText } from '../../util/json.js';
import type { TableEntry } from '../kinds-file.js';
import type { Change, WorkspacePlan } from './types.js';
import { withWork } from './work.js';

/**
 * Planning the fleet file's `tables:` section in one workspace: the fields each data table
 * delivers to its loads. A table is named by id or by title (every table of that title). The
 * update is the whole list (docs/contract-rules.md, Data tables, PUT): a dimension field cannot
 * be deselected (400), and an unknown name would be ignored, so the plan blocks both rather
 * than plan a change the service refuses or one that never converges. System fields are
 * always delivered: listing them changes nothing. The contract has no delete for tables.
 */

/** What apply sends: the table's whole selection. */
export interface TableWork {
  tableId: string;
  selected: string[];
}

/** The tables of a workspace, each detail read once. */
export function tableReader(api: Service, ws: string) {
  let list: Promise<DataTable[]> | undefined;
  const details = new Map<string, Promise<DataTable>>();
  return {
    list: () => (list ??= collect(listTables(api, ws))),
    detail: (id: string) => {
      let read = details.get(id);
      if (!read) details.set(id, (read = getTable(api, ws, id)));
      return read;
    },
  };
}

export type TableReader = ReturnType<typeof tableReader>;

export function tablesNamed(tables: DataTable[], ref: string): DataTable[] {
  const byId = /^\d+$/.test(ref) ? tables.filter((t) => idText(t.id) === ref) : [];
  return byId.length > 0 ? byId : tables.filter((t) => t.title === ref);
}

/** The provider fields of a table (system fields are always delivered) and those it delivers. */
export function selectionOf(t: DataTable): { fields: NonNullable<DataTable['fields']>; selected: string[] } {
  const fields = (t.fields ?? []).filter((f) => f.is_system !== true);
  const names = new Set(fields.map((f) => f.name));
  const selected = t.selected_fields ?? fields.filter((f) => f.is_selected !== false).map((f) => f.name);
  return { fields, selected: selected.filter((n) => names.has(n)) };
}

/**
 * Plans each entry; a table not in the workspace is returned (not blocked here): the extracts
 * this plan creates may be what makes it, which the caller knows once they are planned.
 */
export async function planTables(
  ws: string,
  entries: TableEntry[],
  read: TableReader,
  out: WorkspacePlan,
): Promise<TableEntry[]> {
  if (entries.length === 0) return [];
  const tables = await read.list();
  const matched = entries.map((e) => tablesNamed(tables, e.table));
  const details = await Promise.all(matched.map((ts) => Promise.all(ts.map((t) => read.detail(idText(t.id))))));
  const missing: TableEntry[] = [];
  entries.forEach((entry, i) => {
    if (matched[i]!.length === 0) {
      missing.push(entry);
      return;
    }
    for (const t of details[i]!) {
      const name = entry.table;
      const { fields, selected } = selectionOf(t);
      const system = new Set((t.fields ?? []).filter((f) => f.is_system === true).map((f) => f.name));
      const names = fields.map((f) => f.name);
      const wanted = entry.selectedFields.filter((n) => !system.has(n));
      const unknown = wanted.filter((n) => !names.includes(n));
      const id = idText(t.id);
      if (unknown.length > 0) {
        out.blocked.push({
          resource: 'table',
          name,
          code: 'field_unknown',
          message: `data table ${id} has no field${unknown.length > 1 ? 's' : ''} ${unknown
            .map((n) => {
              const near = didYouMean(n, names);
              return near ? `${n} (${near})` : n;
            })
            .join(
              ', ',
            )}, and the service would ignore ${unknown.length > 1 ? 'them' : 'it'}; \`${suggest(['tables', 'get', id], { workspace: ws })}\` lists its fields`,
        });
        continue;
      }
      const dimensions = fields
        .filter((f) => f.user_type === 'dimension' && !wanted.includes(f.name))
        .map((f) => f.name);
      if (dimensions.length > 0) {
        out.blocked.push({
          resource: 'table',
          name,
          code: 'dimension_deselect_not_allowed',
          message: `data table ${id}: dimension field${dimensions.length > 1 ? 's' : ''} ${dimensions.join(', ')} cannot be deselected (Data tables, PUT); add ${dimensions.length > 1 ? 'them' : 'it'} to selected_fields`,
        });
        continue;
      }
      const add = wanted.filter((n) => !selected.includes(n));
      const remove = selected.filter((n) => !wanted.includes(n));
      if (add.length === 0 && remove.length === 0) continue;
      // In the table's own order, as the service keeps it.
      const whole = names.filter((n) => wanted.includes(n));
      const change: Change = {
        resource: 'table',
        name,
        action: 'update',
        id: t.id,
        detail: { selected_fields: whole, add, remove },
      };
      withWork<TableWork>(change, { tableId: id, selected: whole });
      out.changes.push(change);
    }
  });
  return missing;
}

/** A table the file names that the workspace does not have. */
export function missingTable(ws: string, entry: TableEntry, extractsCreated: boolean, out: WorkspacePlan): void {
  if (extractsCreated)
    out.notes.push({
      resource: 'table',
      name: entry.table,
      code: 'table_not_yet_created',
      message: `no data table "${entry.table}" in workspace ${ws} yet: the extracts this plan creates make their table; plan again once they are applied to set its fields`,
    });
  else
    out.blocked.push({
      resource: 'table',
      name: entry.table,
      code: 'table_not_found',
      message: `no data table "${entry.table}" in workspace ${ws}; an extract makes its table (add an extracts entry), and \`${suggest(['tables', 'list'], { workspace: ws })}\` lists those there are`,
    });
}
