import { listTemplates, type RecipeTemplate } from '../../../api/recipes.js';
import type { Service } from '../../../api/service.js';
import { listAccounts, listAccountsV3, remoteIdLookup, type AccountV3 } from '../../../api/accounts.js';
import { listConnections } from '../../../api/connections.js';
import { listWorkspaces } from '../../../api/workspaces.js';
import type { Context } from '../../../context.js';
import { NotConfirmedError, UsageError } from '../../../errors.js';
import { collect } from '../../../util/collect.js';
import { idText } from '../../../util/json.js';
import { terminalSafe } from '../../../output/terminal-text.js';
import type { DeploySpec, SourceSpec } from '../../../recipes/spec.js';
import { isDate, parseDate } from '../../../util/validate.js';
import { resolveTemplate } from '../../../recipes/deploy.js';

const DONE = '\u0000done';
const ALL_ACTIVE = 'all-active';

/** What the prompts learnt that the summary shows: the template and the accounts' titles. */
export interface Answers {
  template: RecipeTemplate;
  /** account selector (internal id or remote:ID) to its title */
  accountTitles: Map<string, string>;
}

/**
 * Asks for every input the flags did not give, on a terminal only: workspaces, template (with
 * search), title, sync date, then one or several data sources, each with its connection and
 * accounts (with search). Choices come from the first workspace; for several workspaces the
 * accounts picked become `remote:` selectors, resolved in each.
 */
export async function promptMissing(
  ctx: Context,
  api: Service,
  spec: DeploySpec,
  opts: { fromFile?: boolean } = {},
): Promise<Answers> {
  const p = await ctx.prompts();
  const pc = ctx.promptContext();
  if (spec.workspaces === undefined) spec.workspaces = await askWorkspaces(p, pc, api);
  const workspaces = spec.workspaces;
  const first =
    workspaces === 'all' ? idText((await collect(listWorkspaces(api, { limit: 1 })))[0]?.id) : workspaces[0]!;
  if (!first) throw new UsageError('the agency has no workspaces');
  const fleet = workspaces === 'all' || workspaces.length > 1;
  const a: Asking = { p, pc, api, first, fleet, accountTitles: new Map() };
  if (!spec.template) spec.template = await askTemplate(a);
  const template = await resolveTemplate(api, first, spec.template);
  // A spec file that leaves out the title or the date means the defaults: not asked again.
  if (spec.title === undefined && !opts.fromFile) spec.title = await askTitle(a, template);
  if (spec.syncFrom === undefined && !opts.fromFile) {
    const date = await askSyncDate(a);
    if (date !== undefined) spec.syncFrom = date;
  }
  if (spec.sources.length === 0) await askSources(a, spec, template);
  for (const source of spec.sources) if (source.accounts.length === 0) await askAccounts(a, source);
  return { template, accountTitles: a.accountTitles };
}

type Prompts = Awaited<ReturnType<Context['prompts']>>;
type PromptContext = ReturnType<Context['promptContext']>;

/** What the prompts of one deployment share: choices come from its first workspace. */
interface Asking {
  p: Prompts;
  pc: PromptContext;
  api: Service;
  first: string;
  /** several workspaces: connections are found again in each, accounts named by remote id */
  fleet: boolean;
  /** account selector (internal id or remote:ID) to its title, for the summary */
  accountTitles: Map<string, string>;
}

async function askWorkspaces(p: Prompts, pc: PromptContext, api: Service): Promise<string[]> {
  const workspaces = await collect(listWorkspaces(api));
  return p.checkbox(
    {
      message: 'Deploy to which workspaces?',
      choices: workspaces.map((w) => ({ name: terminalSafe(`${idText(w.id)}  ${w.title}`), value: idText(w.id) })),
      required: true,
    },
    pc,
  );
}

/** The template's id, searched by title among the first workspace's. */
async function askTemplate({ p, pc, api, first }: Asking): Promise<string> {
  const templates = await collect(listTemplates(api, first));
  return p.search(
    {
      message: 'Template (type to search)',
      source: (term) => {
        const needle = (term ?? '').toLowerCase();
        return templates
          .filter((t) => !needle || t.title.toLowerCase().includes(needle))
          .map((t) => ({
            name: terminalSafe(`${t.title}  (${idText(t.id)}, ${t.build_mode ?? 'build mode not given'})`),
            value: idText(t.id),
            description:
              t.description === undefined || t.description === null ? undefined : terminalSafe(String(t.description)),
          }));
      },
    },
    pc,
  );
}

async function askTitle({ p, pc }: Asking, template: RecipeTemplate): Promise<string> {
  const title = await p.input(
    {
      message: 'Recipe title',
      default: template.title,
      validate: (v) => (v.trim().length > 0 && v.length <= 255) || 'a title of 1 to 255 characters',
    },
    pc,
  );
  return title.trim();
}

/** The date to sync from; undefined for the service's default. */
async function askSyncDate({ p, pc }: Asking): Promise<string | undefined> {
  const date = await p.input(
    {
      message: "Sync data from (YYYY-MM-DD; empty for the service's default)",
      default: '',
      validate: (v) => v.trim() === '' || isDate(v.trim()) || 'a date as YYYY-MM-DD, or empty',
    },
    pc,
  );
  return date.trim() === '' ? undefined : parseDate(date.trim(), 'sync date');
}

/** One data source after another, among those the template allows, each with its accounts. */
async function askSources(a: Asking, spec: DeploySpec, template: RecipeTemplate): Promise<void> {
  const allowed = template.data_sources ?? [];
  if (allowed.length === 0)
    throw new UsageError(`template ${idText(template.id)} names no data sources: pass --data-source`);
  for (;;) {
    const left = allowed.filter((d) => !spec.sources.some((s) => s.dataSource === d));
    const dataSource =
      allowed.length === 1
        ? allowed[0]!
        : await a.p.select(
            {
              message: spec.sources.length === 0 ? 'Data source' : 'Next data source',
              choices: left.map((d) => ({ name: terminalSafe(d), value: d })),
            },
            a.pc,
          );
    const source: SourceSpec = { dataSource, accounts: [] };
    spec.sources.push(source);
    await askAccounts(a, source);
    if (left.length <= 1) break;
    if (!(await a.p.confirm({ message: 'Add another data source?', default: false }, a.pc))) break;
  }
}

/** A source's accounts, of its connection (asked for when the first workspace has several). */
async function askAccounts(a: Asking, source: SourceSpec): Promise<void> {
  const { api, first, fleet } = a;
  let connection = source.connection;
  if (!connection) {
    connection = await askConnection(a, source.dataSource);
    // In a fleet the connection is found again in each workspace.
    if (!fleet) source.connection = connection;
  }
  const accounts = (await collect(listAccounts(api, first, connection))).filter((x) => x.is_active);
  const remoteOf = fleet ? remoteIdLookup(await collect<AccountV3>(listAccountsV3(api, first, connection))) : undefined;
  const picked = await pickAccounts(a, source.dataSource, accounts);
  source.accounts = picked.map((id) => {
    if (id === ALL_ACTIVE) return id;
    const account = accounts.find((x) => idText(x.id) === id)!;
    const remote = remoteOf?.(account);
    const selector = remote ? `remote:${remote}` : id;
    a.accountTitles.set(selector, account.title);
    return selector;
  });
}

/** The first workspace's connection of a data source: the only one, or the one chosen. */
async function askConnection({ p, pc, api, first }: Asking, dataSource: string): Promise<string> {
  const connections = await collect(listConnections(api, first, dataSource));
  if (connections.length === 0) throw new UsageError(`workspace ${first} has no ${dataSource} connection`);
  if (connections.length === 1) return idText(connections[0]!.id);
  return p.select(
    {
      message: terminalSafe(`${dataSource} connection`),
      choices: connections.map((c) => ({
        name: terminalSafe(`${idText(c.id)}  ${String(c.title ?? '')}`),
        value: idText(c.id),
      })),
    },
    pc,
  );
}

/** Accounts picked one by one (with search) until done or none is left; or all active ones. */
async function pickAccounts(
  { p, pc }: Asking,
  dataSource: string,
  accounts: Array<{ id: unknown; title: string }>,
): Promise<string[]> {
  const picked: string[] = [];
  for (;;) {
    const choice = await p.search(
      {
        message: terminalSafe(`${dataSource} accounts (type to search; ${picked.length} picked)`),
        source: (term) => {
          const needle = (term ?? '').toLowerCase();
          const rest = accounts
            .filter(
              (x) =>
                !picked.includes(idText(x.id)) &&
                (!needle || x.title.toLowerCase().includes(needle) || idText(x.id).includes(needle)),
            )
            .map((x) => ({ name: terminalSafe(`${x.title}  (${idText(x.id)})`), value: idText(x.id) }));
          return [
            ...(picked.length > 0
              ? [{ name: `Done: deploy with the ${picked.length} picked`, value: DONE }]
              : [{ name: 'All active accounts', value: ALL_ACTIVE }]),
            ...rest,
          ];
        },
      },
      pc,
    );
    if (choice === ALL_ACTIVE) return [...picked, ALL_ACTIVE];
    if (choice === DONE) return picked;
    picked.push(choice);
    if (picked.length === accounts.length) return picked;
  }
}

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that deploys the same without prompts: flags for one data source; for several
 * (the flags take one) the spec as JSON on standard input, in one pasteable command.
 */
export function equivalentCommand(spec: DeploySpec, extra: string[] = []): string {
  const words = ['edp', 'recipes', 'deploy'];
  if (spec.workspaces === 'all') words.push('--all-workspaces');
  else if (spec.workspaces) words.push('-w', spec.workspaces.join(','));
  if (spec.concurrency !== undefined) words.push('--concurrency', String(spec.concurrency));
  if (spec.sources.length <= 1) {
    if (spec.template) words.push('--template', spec.template);
    if (spec.title !== undefined) words.push('--title', spec.title);
    if (spec.syncFrom !== undefined) words.push('--sync-from-date', spec.syncFrom);
    for (const s of spec.sources) {
      words.push('--data-source', s.dataSource);
      if (s.connection !== undefined) words.push('--connection', s.connection);
      words.push('--accounts', s.accounts.join(','));
    }
    return [...words, ...extra].map(shellWord).join(' ');
  }
  const file: Record<string, unknown> = { template: spec.template };
  if (spec.title !== undefined) file.title = spec.title;
  if (spec.syncFrom !== undefined) file.sync_from_date = spec.syncFrom;
  file.sources = spec.sources.map((s) => ({
    data_source: s.dataSource,
    ...(s.connection !== undefined ? { connection: s.connection } : {}),
    accounts: s.accounts,
  }));
  return `${[...words, '--file', '-', ...extra].map(shellWord).join(' ')} <<'SPEC'\n${JSON.stringify(file, null, 2)}\nSPEC`;
}

/** The inputs as a person checks them before anything is written (stderr). */
export function summaryLines(spec: DeploySpec, answers: Answers): string[] {
  const t = answers.template;
  const lines = [
    'Deployment:',
    `  workspaces   ${spec.workspaces === 'all' ? 'all of the agency' : (spec.workspaces ?? []).join(', ')}`,
    `  template     ${idText(t.id)} "${t.title}"${t.build_mode ? ` (${t.build_mode})` : ''}`,
    `  title        ${spec.title ?? t.title}`,
    `  sync from    ${spec.syncFrom ?? "the service's default"}`,
  ];
  for (const s of spec.sources) {
    const accounts = s.accounts.map((a) =>
      a === ALL_ACTIVE
        ? 'all active accounts'
        : answers.accountTitles.has(a)
          ? `${answers.accountTitles.get(a)} (${a})`
          : a,
    );
    lines.push(
      `  ${s.dataSource}  ${s.connection !== undefined ? `connection ${s.connection}` : 'the connection of each workspace'}; ${accounts.join(', ')}`,
    );
  }
  return lines;
}

/** Asks before the first write; declining changes nothing (exit 11, declined). */
export async function confirmDeploy(ctx: Context): Promise<void> {
  const p = await ctx.prompts();
  const ok = await p.confirm({ message: 'Deploy now?', default: true }, ctx.promptContext());
  if (!ok) throw new NotConfirmedError();
}
