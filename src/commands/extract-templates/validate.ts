import { validateTemplate } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { parseId, parseIdList } from '../../util/validate.js';
import { settingsFrom } from '../shared/template-settings.js';
import type { ValidateOptions } from './command.js';

export async function runValidate(opts: ValidateOptions, ctx: Context): Promise<void> {
  const templateId = parseId(opts.args[0], 'template id');
  const accounts = parseIdList(opts.accounts, '--accounts');
  const settings = await settingsFrom(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const result = await validateTemplate(api, ws, templateId, accounts, settings);
  if (ctx.output.machine) ctx.output.json(result);
  else
    ctx.output.success(
      `Template ${templateId} is valid for accounts ${accounts.join(', ')}${result.connection_id !== undefined ? ` (connection ${idText(result.connection_id)})` : ''}`,
    );
}
