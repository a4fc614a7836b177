import { getPermissionCatalog, type CatalogLayer } from '../../api/roles.js';
import type { Context } from '../../context.js';
import { catalogPairText } from '../../roles/permission.js';
import type { PermissionsOptions } from './command.js';

export async function runPermissions(_opts: PermissionsOptions, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const catalog = await getPermissionCatalog(api);
  if (ctx.output.flags.json) {
    ctx.output.json(catalog);
    return;
  }
  if (ctx.output.flags.ndjson) {
    for (const layer of catalog) ctx.output.ndjson(layer);
    return;
  }
  type Row = { layer: CatalogLayer; permission: CatalogLayer['permissions'][number] };
  const rows: Row[] = catalog.flatMap((layer) =>
    (layer.permissions ?? []).map((permission) => ({ layer, permission })),
  );
  await ctx.output.list(
    rows,
    [
      { header: 'PERMISSION', value: (r) => catalogPairText(r.layer, r.permission) },
      { header: 'TITLE', value: (r) => r.permission.title },
      { header: 'DESCRIPTION', value: (r) => r.permission.description },
    ],
    { empty: 'The permission catalog is empty.' },
  );
}
