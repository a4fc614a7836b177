import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { readValidDocument } from '../../../util/document.js';
import { parseDate, parseId } from '../../../util/validate.js';
import type { DeployOptions } from '../command.js';
import { renamedValue } from '../../shared/flags.js';
import { chosenConcurrency } from '../../shared/concurrency.js';
import { splitList } from '../../../recipes/configuration.js';
import type { SpecDocument } from '../../../recipes/spec-schema.js';
import type { DeploySpec } from '../../../recipes/spec.js';

/** A deploy spec from a `--file` document that passed the schema (./schema.ts). */
function specOfDocument(f: SpecDocument): DeploySpec {
  return {
    template: f.template,
    title: f.title,
    syncFrom: f.sync_from_date,
    workspaces: f.workspaces,
    concurrency: f.concurrency,
    sources: f.sources.map((s) => ({ dataSource: s.data_source, connection: s.connection, accounts: s.accounts })),
  };
}

const INPUT_FLAGS = [
  ['template', '--template'],
  ['title', '--title'],
  ['dataSource', '--data-source'],
  ['connection', '--connection'],
  ['accounts', '--accounts'],
  ['syncFromDate', '--sync-from-date'],
  ['syncFrom', '--sync-from'],
] as const satisfies ReadonlyArray<readonly [keyof DeployOptions, string]>;

/**
 * The spec from `--file` or from flags; `-w`, `--all-workspaces` and `--concurrency` given on
 * the command line win over the file's. Everything is checked before any request.
 */
export async function specFromOptions(ctx: Context, opts: DeployOptions): Promise<DeploySpec> {
  let spec: DeploySpec;
  const syncFromFlag = renamedValue(
    ctx,
    opts.syncFromDate,
    { value: opts.syncFrom, flag: '--sync-from' },
    '--sync-from-date',
  );
  if (opts.file !== undefined) {
    const clash = INPUT_FLAGS.filter(([k]) => opts[k] !== undefined).map(([, flag]) => flag);
    if (clash.length > 0)
      throw new UsageError(`--file gives the whole spec; drop ${clash.join(', ')} or put them in the file`);
    spec = specOfDocument(
      await readValidDocument(
        opts.file,
        ctx.io.stdin,
        '--file',
        'deploy spec',
        async () => (await import('../../../recipes/spec-schema.js')).deploySpec,
      ),
    );
  } else {
    if (opts.title !== undefined && (opts.title.trim() === '' || opts.title.length > 255))
      throw new UsageError('--title must be 1 to 255 characters');
    if (opts.template !== undefined && opts.template.trim() === '')
      throw new UsageError('--template must be a template id or its exact title');
    const accounts = splitList(opts.accounts);
    if (opts.accounts !== undefined && accounts.length === 0)
      throw new UsageError('--accounts needs at least one account: an id, a title, remote:ID or all-active');
    if ((opts.connection !== undefined || opts.accounts !== undefined) && opts.dataSource === undefined)
      throw new UsageError('--connection and --accounts need --data-source');
    spec = {
      template: opts.template?.trim(),
      title: opts.title,
      syncFrom: syncFromFlag === undefined ? undefined : parseDate(syncFromFlag, '--sync-from-date'),
      workspaces: undefined,
      concurrency: undefined,
      sources:
        opts.dataSource === undefined
          ? []
          : [
              {
                dataSource: opts.dataSource,
                connection: opts.connection === undefined ? undefined : parseId(opts.connection, '--connection'),
                accounts,
              },
            ],
    };
  }
  // -w, EDP_WORKSPACE or --all-workspaces win over the file's `workspaces`; the profile's default
  // workspace never chooses them (config/resolve.ts).
  const scope = ctx.settings.workspaceScope(opts);
  if (scope) spec.workspaces = scope.value;
  // The flag wins over the file; below both: EDP_CONCURRENCY, the profile's concurrency, then
  // auto (edp config). `chosenConcurrency` takes the flag first and checks every source.
  if (opts.concurrency !== undefined || spec.concurrency === undefined)
    spec.concurrency = chosenConcurrency(ctx, opts.concurrency);
  return spec;
}

/** Inputs still missing, named by the flag that gives each (for the non-interactive refusal). */
export function missingInputs(spec: DeploySpec): string[] {
  const missing: string[] = [];
  if (spec.workspaces === undefined) missing.push('-w/--workspace ID[,ID…] (or --all-workspaces)');
  if (!spec.template) missing.push('--template ID|TITLE');
  if (spec.sources.length === 0) missing.push('--data-source DS');
  if (spec.sources.some((s) => s.accounts.length === 0)) missing.push('--accounts A,B|remote:ID|all-active');
  return missing;
}
