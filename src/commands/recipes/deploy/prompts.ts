import { listTemplates } from '../../../api/recipes.js';
import type { Service } from '../../../api/service.js';
import { listAccounts, listAccountsV3, listConnections, remoteIdLookup, type AccountV3 } from '../../../api/sources.js';
import { listWorkspaces } from '../../../api/workspaces.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { collect } from '../../../util/collect.js';
import { idText } from '../../../util/json.js';
import { terminalSafe } from '../../../output/terminal-text.js';
import type { DeploySpec } from './spec.js';
import { resolveTemplate } from './steps.js';

const DONE = '\u0000done';
const ALL_ACTIVE = 'all-active';

/**
 * Asks for what the flags did not give, on a terminal only: workspaces, template (with search),
 * data source, connection, accounts (with search). Choices come from the first workspace; for
 * several workspaces the accounts picked become `remote:` selectors, resolved in each.
 */
export async function promptMissing(ctx: Context, api: Service, spec: DeploySpec): Promise<void> {
  const p = await ctx.prompts();
  const pc = ctx.promptContext();
  if (spec.workspaces === undefined) {
    const workspaces = await collect(listWorkspaces(api));
    const chosen = await p.checkbox(
      { message: 'Deploy to which workspaces?', choices: workspaces.map((w) => ({ name: terminalSafe(`${idText(w.id)}  ${w.title}`), value: idText(w.id) })), required: true },
      pc,
    );
    spec.workspaces = chosen;
  }
  const first = spec.workspaces === 'all' ? idText((await collect(listWorkspaces(api, { limit: 1 })))[0]?.id) : spec.workspaces[0]!;
  if (!first) throw new UsageError('the agency has no workspaces');
  const fleet = spec.workspaces === 'all' || spec.workspaces.length > 1;

  if (!spec.template) {
    const templates = await collect(listTemplates(api, first));
    spec.template = await p.search(
      {
        message: 'Template (type to search)',
        source: (term) => {
          const needle = (term ?? '').toLowerCase();
          return templates
            .filter((t) => !needle || t.title.toLowerCase().includes(needle))
            .map((t) => ({ name: terminalSafe(`${t.title}  (${idText(t.id)}, ${t.build_mode ?? 'build mode not given'})`), value: idText(t.id), description: t.description === undefined || t.description === null ? undefined : terminalSafe(String(t.description)) }));
        },
      },
      pc,
    );
  }
  if (spec.sources.length === 0) {
    const template = await resolveTemplate(api, first, spec.template);
    const allowed = template.data_sources ?? [];
    if (allowed.length === 0) throw new UsageError(`template ${idText(template.id)} names no data sources: pass --data-source`);
    const dataSource = allowed.length === 1 ? allowed[0]! : await p.select({ message: 'Data source', choices: allowed.map((d) => ({ name: terminalSafe(d), value: d })) }, pc);
    spec.sources.push({ dataSource, accounts: [] });
  }
  for (const source of spec.sources) {
    if (source.accounts.length > 0) continue;
    let connection = source.connection;
    if (!connection) {
      const connections = await collect(listConnections(api, first, source.dataSource));
      if (connections.length === 0) throw new UsageError(`workspace ${first} has no ${source.dataSource} connection`);
      connection =
        connections.length === 1
          ? idText(connections[0]!.id)
          : await p.select({ message: terminalSafe(`${source.dataSource} connection`), choices: connections.map((c) => ({ name: terminalSafe(`${idText(c.id)}  ${String(c.title ?? '')}`), value: idText(c.id) })) }, pc);
      // In a fleet the connection is found again in each workspace.
      if (!fleet) source.connection = connection;
    }
    const accounts = (await collect(listAccounts(api, first, connection))).filter((a) => a.is_active);
    const remoteOf = fleet ? remoteIdLookup(await collect<AccountV3>(listAccountsV3(api, first, connection))) : undefined;
    const picked: string[] = [];
    for (;;) {
      const choice = await p.search(
        {
          message: terminalSafe(`${source.dataSource} accounts (type to search; ${picked.length} picked)`),
          source: (term) => {
            const needle = (term ?? '').toLowerCase();
            const rest = accounts
              .filter((a) => !picked.includes(idText(a.id)) && (!needle || a.title.toLowerCase().includes(needle) || idText(a.id).includes(needle)))
              .map((a) => ({ name: terminalSafe(`${a.title}  (${idText(a.id)})`), value: idText(a.id) }));
            return [
              ...(picked.length > 0 ? [{ name: `Done: deploy with the ${picked.length} picked`, value: DONE }] : [{ name: 'All active accounts', value: ALL_ACTIVE }]),
              ...rest,
            ];
          },
        },
        pc,
      );
      if (choice === ALL_ACTIVE) {
        picked.push(ALL_ACTIVE);
        break;
      }
      if (choice === DONE) break;
      picked.push(choice);
      if (picked.length === accounts.length) break;
    }
    source.accounts = picked.map((id) => {
      if (id === ALL_ACTIVE || !remoteOf) return id;
      const remote = remoteOf(accounts.find((a) => idText(a.id) === id)!);
      return remote ? `remote:${remote}` : id;
    });
  }
}
