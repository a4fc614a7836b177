import { getTable, setSelectedFields, type DataTable, type TableField } from '../../api/tables.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseId } from '../../util/validate.js';
import { parseNames } from '../shared/names.js';
import type { FieldsOptions } from './command.js';
import { fieldColumns, showTable } from './shared/show.js';

/** Fields a selection governs: system fields are always delivered and not selectable. */
function selectable(t: DataTable): TableField[] {
  return (t.fields ?? []).filter((f) => !f.is_system);
}

function currentSelection(t: DataTable): string[] {
  if (Array.isArray(t.selected_fields)) return t.selected_fields;
  return selectable(t)
    .filter((f) => f.is_selected !== false)
    .map((f) => f.name);
}

/**
 * The PUT takes the full list of fields to deliver (docs/contract-rules.md, Data tables, PUT).
 * `--set` names it; `--add` and `--remove` change the current one. Dimensions cannot be deselected:
 * refused here, before anything is sent. Names the table does not have are ignored by the service,
 * so they are reported rather than sent silently.
 */
export function nextSelection(
  t: DataTable,
  opts: { set?: string[] | undefined; add?: string[] | undefined; remove?: string[] | undefined },
): { selection: string[]; unknown: string[] } {
  const fields = selectable(t);
  const known = new Set(fields.map((f) => f.name));
  const system = new Set((t.fields ?? []).filter((f) => f.is_system).map((f) => f.name));
  const named = [...(opts.set ?? []), ...(opts.add ?? []), ...(opts.remove ?? [])];
  const unknown = named.filter((n) => !known.has(n) && !system.has(n));
  const systemNamed = (opts.remove ?? []).filter((n) => system.has(n));
  if (systemNamed.length > 0)
    throw new UsageError(
      `--remove: ${systemNamed.join(', ')} ${systemNamed.length > 1 ? 'are system fields' : 'is a system field'}, always delivered`,
    );
  let wanted = new Set(opts.set ?? currentSelection(t));
  for (const n of opts.add ?? []) wanted.add(n);
  for (const n of opts.remove ?? []) wanted.delete(n);
  wanted = new Set([...wanted].filter((n) => known.has(n)));
  const dims = fields.filter((f) => f.user_type === 'dimension' && !wanted.has(f.name)).map((f) => f.name);
  if (dims.length > 0) {
    const flag = opts.set ? '--set' : '--remove';
    throw new UsageError(`${flag}: dimension fields cannot be deselected: ${dims.join(', ')}`);
  }
  return { selection: fields.map((f) => f.name).filter((n) => wanted.has(n)), unknown };
}

export async function runFields(opts: FieldsOptions, ctx: Context): Promise<void> {
  const tableId = parseId(opts.args[0], 'data table id');
  const set = opts.set === undefined ? undefined : parseNames(opts.set, '--set');
  const add = opts.add === undefined ? undefined : parseNames(opts.add, '--add');
  const remove = opts.remove === undefined ? undefined : parseNames(opts.remove, '--remove');
  if (set && (add || remove))
    throw new UsageError('--set names the whole selection; use it without --add and --remove');
  const both = (add ?? []).filter((n) => (remove ?? []).includes(n));
  if (both.length > 0) throw new UsageError(`--add and --remove both name ${both.join(', ')}`);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const table = await getTable(api, ws, tableId);
  if (!set && !add && !remove) {
    if (ctx.output.machine) ctx.output.json(table.fields ?? []);
    else await ctx.output.list(table.fields ?? [], fieldColumns, { empty: 'The table has no fields.' });
    return;
  }
  const { selection, unknown } = nextSelection(table, { set, add, remove });
  if (unknown.length > 0) ctx.output.warn(`data table ${tableId} has no field ${unknown.join(', ')}; ignored`);
  const updated = await setSelectedFields(api, ws, tableId, selection);
  if (!ctx.output.machine)
    ctx.output.success(
      `Data table ${tableId} delivers ${selection.length} selected fields to all its loads, plus the system fields`,
    );
  await showTable(ctx, updated);
}
