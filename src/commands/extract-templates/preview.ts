import { previewTemplate } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import { parseId, parseIdList } from '../../util/validate.js';
import { settingsFrom } from '../shared/template-settings.js';
import type { PreviewOptions } from './command.js';

export async function runPreview(opts: PreviewOptions, ctx: Context): Promise<void> {
  const templateId = parseId(opts.args[0], 'template id');
  const accounts = opts.accounts === undefined ? undefined : parseIdList(opts.accounts, '--accounts');
  const settings = await settingsFrom(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const preview = await previewTemplate(api, ws, templateId, accounts, settings);
  if (ctx.output.machine) {
    ctx.output.json(preview);
    return;
  }
  const names = (preview.fields ?? []).map((f) => f.name);
  await ctx.output.list(
    preview.rows ?? [],
    names.map((n) => ({ header: n, value: (r: Record<string, unknown>) => r[n] })),
    { empty: 'The preview has no rows.' },
  );
}
