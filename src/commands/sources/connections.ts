import type { Context } from '../../context.js';
import { deleteConnection, listConnections, type Connection } from '../../api/sources.js';
import { ExitCode, ExitError, UsageError } from '../../errors.js';
import { jsonInteger } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import type { Opts } from '../app.js';
import { limitOf } from '../workspaces/run.js';
import { parseDataSource } from './datasources.js';

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const datasource = parseDataSource(opts.dataSource);
  const limit = limitOf(opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listConnections(api, ws, datasource, { limit }),
    [
      { header: 'ID', value: (c: Connection) => c.id },
      { header: 'TITLE', value: (c: Connection) => c.title },
      { header: 'ACCOUNTS', value: (c: Connection) => c.accounts_number },
      { header: 'ENABLED FOR EXTRACTION', value: (c: Connection) => c.enabled_for_extraction_accounts_number },
    ],
    { empty: `No ${datasource} connections in workspace ${ws}.` },
  );
  return 0;
}

/**
 * The prompt library ends the stream it wrote to once it is done; stderr must stay open for
 * the lines that follow when the command runs in-process on streams that can be ended.
 */
function keepOpen<T extends object>(stream: T): T {
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'end') return () => target;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export async function runDelete(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const connectionId = parseId(id as string, 'connection id');
  const datasource = opts.dataSource === undefined ? undefined : parseDataSource(opts.dataSource);
  const ws = ctx.requireWorkspace();
  if (!opts.yes) {
    if (!ctx.interactive) {
      throw new UsageError(`deleting connection ${connectionId} cannot be undone (its accounts become inactive and its extractions pause); pass --yes to confirm (no prompt: not a terminal, CI set, or --no-input)`);
    }
    const { confirm } = await ctx.prompts();
    const ok = await confirm(
      { message: `Delete connection ${connectionId} in workspace ${ws}? Its accounts become inactive and its extractions pause.`, default: false },
      { ...ctx.promptContext(), output: keepOpen(ctx.io.stderr) },
    );
    if (!ok) throw new ExitError(ExitCode.failure, 'not confirmed; nothing was deleted');
  }
  const api = await ctx.api();
  await deleteConnection(api, ws, connectionId, datasource);
  if (ctx.output.machine) ctx.output.json({ connection_id: jsonInteger(connectionId), deleted: true });
  else ctx.output.success(`Deleted connection ${connectionId}: its accounts are now inactive and its extractions are paused`);
  return 0;
}
