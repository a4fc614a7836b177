import { createTemplate, getCompactTemplate } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { parseNames } from '../shared/names.js';
import { checkTitle, parseName } from '../shared/options.js';
import type { CreateOptions } from './command.js';
import { showTemplate } from './shared/show.js';

/**
 * A template is based on a global parent; a wide parent needs `connection_id` and a field selection
 * (docs/contract-rules.md, Extraction templates, create). The parent's compact form is read first
 * so that a missing --connection or --fields is refused before the create is sent.
 */
export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const ds = parseName(opts.dataSource, '--data-source');
  const title = checkTitle(opts.title);
  const parentId = parseId(opts.parent, '--parent');
  const connectionId = opts.connection === undefined ? undefined : parseId(opts.connection, '--connection');
  const fields = opts.fields === undefined ? undefined : parseNames(opts.fields, '--fields');
  const dynamicFields =
    opts.dynamicFields === undefined ? undefined : parseNames(opts.dynamicFields, '--dynamic-fields');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const parent = await getCompactTemplate(api, ws, parentId);
  if (parent.datasource_name !== ds)
    throw new UsageError(`--parent ${parentId} is a ${parent.datasource_name} template, not ${ds}`);
  if (parent.is_wide_template) {
    if (!connectionId)
      throw new UsageError(
        `--parent ${parentId} is a wide template: pass --connection ID (its dynamic schema validates the fields)`,
      );
    if (!fields)
      throw new UsageError(
        `--parent ${parentId} is a wide template: pass --fields with the dimensions and metrics to keep`,
      );
  } else if (dynamicFields) {
    throw new UsageError(`--dynamic-fields needs a wide parent; template ${parentId} is not wide`);
  }
  const created = await createTemplate(api, ws, ds, { title, parentId, connectionId, fields, dynamicFields });
  if (!ctx.output.machine) ctx.output.success(`Created extract template ${idText(created.id)}`);
  await showTemplate(ctx, created);
}
