import { suggest } from '../../util/suggest.js';
import { listTemplates, type ExtractTemplate } from '../../api/extract-templates.js';
import { listExtracts, type Extract } from '../../api/extracts.js';
import type { Service } from '../../api/service.js';
import { collect } from '../../util/collect.js';
import { idText } from '../../util/json.js';
import type { ExtractEntry } from '../kinds-file.js';
import {
  accountText,
  matchAccounts,
  withNames,
  type PlanPart,
  type SourceAccount,
  type SourceAccounts,
} from './accounts.js';
import type { Change } from './types.js';
import { withWork } from './work.js';

/**
 * Planning the fleet file's `extracts:` section in one workspace. An entry is an extraction
 * template of a data source and the accounts it extracts: one extract per account (an extract
 * pulls one account's data, docs/contract-rules.md, Extract), so a workspace's extracts of the
 * entry are those of the template, matched to the entry's accounts by account. The contract has
 * no delete for extracts: an extract of the template whose account the file leaves out is a
 * note, with the command that pauses it.
 */

/** The templates and extracts of a data source, read once per workspace. */
export interface SourceExtraction {
  templates: ExtractTemplate[];
  extracts: Extract[];
}

export function extractionReader(api: Service, ws: string): (ds: string) => Promise<SourceExtraction> {
  const cache = new Map<string, Promise<SourceExtraction>>();
  return (ds) => {
    let read = cache.get(ds);
    if (!read) {
      read = Promise.all([
        collect(listTemplates(api, ws, ds)),
        collect(listExtracts(api, ws, { datasourceNames: [ds] })),
      ]).then(([templates, extracts]) => ({ templates, extracts }));
      cache.set(ds, read);
    }
    return read;
  };
}

/** A template by id, else by title (exact, else in any letter case); several of one title are ambiguous. */
export function findTemplate(
  templates: ExtractTemplate[],
  ref: string,
): { template?: ExtractTemplate; several?: ExtractTemplate[] } {
  const byId = /^\d+$/.test(ref) ? templates.find((t) => idText(t.id) === ref) : undefined;
  if (byId) return { template: byId };
  let titled = templates.filter((t) => t.title === ref);
  if (titled.length === 0) titled = templates.filter((t) => t.title?.toLowerCase() === ref.toLowerCase());
  if (titled.length > 1) return { several: titled };
  return { template: titled[0] };
}

/** The internal account an extract pulls. */
export const extractAccount = (e: Extract) => idText(e.account_embedded_id ?? e.account_entity_id);

export const templateOfExtract = (e: Extract) => (e.template?.id !== undefined ? idText(e.template.id) : undefined);

/** What apply sends for an extract change. */
export interface ExtractWork {
  templateId: string;
  accountId: string;
  /**
   * What the creates of one entry in one workspace share: the table the template's extracts fill
   * (the first create makes one when there is none), and the data source's extracts as apply
   * finds them (a recipe's build in the same apply may have made one for the account).
   */
  table: { id: string | undefined; dataSource: string; found?: Promise<Extract[]> };
  schedule: string | undefined;
  paused: boolean | undefined;
}

export async function planExtracts(
  ws: string,
  entries: ExtractEntry[],
  readExtraction: (ds: string) => Promise<SourceExtraction>,
  readSource: (ds: string) => Promise<SourceAccounts>,
  out: PlanPart,
): Promise<void> {
  const read = await Promise.all(
    entries.map((e) => Promise.all([readExtraction(e.dataSource), readSource(e.dataSource)])),
  );
  for (const [i, entry] of entries.entries()) {
    const [{ templates, extracts }, source] = read[i]!;
    await withNames(source, entry.accounts, (s, part) => planEntry(ws, entry, templates, extracts, s, part), out);
  }
}

function planEntry(
  ws: string,
  entry: ExtractEntry,
  templates: ExtractTemplate[],
  extracts: Extract[],
  source: SourceAccounts,
  out: PlanPart,
): void {
  const name = entry.template;
  const block = (code: string, message: string) => out.blocked.push({ resource: 'extract', name, code, message });
  const found = findTemplate(templates, entry.template);
  const list = `\`${suggest(['extract-templates', 'list', '--data-source', entry.dataSource], { workspace: ws })}\``;
  if (found.several) {
    block(
      'template_ambiguous',
      `${found.several.length} ${entry.dataSource} templates are titled "${entry.template}" (${found.several.map((t) => idText(t.id)).join(', ')}); name one by id (${list} lists them)`,
    );
    return;
  }
  if (!found.template) {
    block(
      'template_not_found',
      `no ${entry.dataSource} extraction template "${entry.template}" in workspace ${ws}; ${list} lists them`,
    );
    return;
  }
  const templateId = idText(found.template.id);
  const own = extracts.filter((e) => templateOfExtract(e) === templateId).sort((a, b) => Number(a.id) - Number(b.id));
  const { matched, problems } = matchAccounts(entry.accounts, source.accounts);
  for (const p of problems)
    block('account_unresolved', `${entry.dataSource} account ${p.selector} in workspace ${ws}: ${p.reason}`);
  if (source.connections.length === 0)
    block(
      'connection_not_found',
      `workspace ${ws} has no ${entry.dataSource} connection; connect it first (\`${suggest(['iframe-url', '--type', 'datasource', '--name', entry.dataSource], { workspace: ws })}\`)`,
    );
  const table = {
    id: own[0]?.data_table_id !== undefined ? idText(own[0].data_table_id) : undefined,
    dataSource: entry.dataSource,
  };
  const claimed = new Set<Extract>();
  for (const a of matched) {
    const e = own.find((x) => extractAccount(x) === a.id && !claimed.has(x));
    if (e) {
      claimed.add(e);
      planExisting(ws, entry, e, a, out);
      continue;
    }
    if (!a.account.is_active) {
      block(
        'account_inactive',
        `${entry.dataSource} account ${accountText(a)} in workspace ${ws} is inactive, and an extract is made only for an active account; reconnect it (\`${suggest(['iframe-url', '--type', 'datasource', '--name', entry.dataSource], { workspace: ws })}\`) or leave it out of the file`,
      );
      continue;
    }
    const change: Change = {
      resource: 'extract',
      name,
      action: 'create',
      id: null,
      detail: {
        data_source: entry.dataSource,
        template_id: found.template.id,
        account: accountText(a),
        schedule: entry.schedule ?? null,
        paused: entry.paused ?? false,
      },
    };
    withWork<ExtractWork>(change, {
      templateId,
      accountId: a.id,
      table,
      schedule: entry.schedule,
      paused: entry.paused,
    });
    out.changes.push(change);
  }
  const named = new Map(source.accounts.map((a) => [a.id, a]));
  for (const e of own.filter((x) => !claimed.has(x))) {
    const a = named.get(extractAccount(e));
    out.notes.push({
      resource: 'extract',
      name,
      code: 'extract_not_in_file',
      message: `extract ${idText(e.id)} (account ${a ? accountText(a) : extractAccount(e)}) is not in the file; the service has no delete for extracts, so it stays${e.is_paused ? ' (paused)' : `: pause it with \`${suggest(['extracts', 'pause', idText(e.id)], { workspace: ws })}\`, or add its account to the file`}`,
    });
  }
}

/** An extract the file names: its schedule and pause, where the file gives them. */
function planExisting(ws: string, entry: ExtractEntry, e: Extract, a: SourceAccount, out: PlanPart): void {
  const given = (e as { schedule?: unknown }).schedule;
  const live = typeof given === 'string' ? given : null;
  const schedule =
    entry.schedule !== undefined && entry.schedule !== live ? { was: live, now: entry.schedule } : undefined;
  let paused: boolean | undefined =
    entry.paused !== undefined && entry.paused !== (e.is_paused === true) ? entry.paused : undefined;
  if (paused === false && e.pause_reason && e.pause_reason !== 'manual') {
    // Paused by the service (its connection deleted, a migration to a wide template): unpause refuses.
    const migrated = (e as { migrated_to_id?: unknown }).migrated_to_id;
    out.blocked.push({
      resource: 'extract',
      name: entry.template,
      code: 'extract_paused_by_service',
      message:
        migrated !== null && migrated !== undefined
          ? `extract ${idText(e.id)} (account ${accountText(a)}) was migrated to extract ${idText(migrated)} and stays paused; name the new extract's template in the file, or set paused: true`
          : `extract ${idText(e.id)} (account ${accountText(a)}) was paused by the service (${e.pause_reason}) and cannot be unpaused; reconnect its account (\`${suggest(['iframe-url', '--type', 'datasource', '--name', entry.dataSource], { workspace: ws })}\`), or set paused: true`,
    });
    paused = undefined;
  }
  if (!schedule && paused === undefined) return;
  const change: Change = {
    resource: 'extract',
    name: entry.template,
    action: 'update',
    id: e.id,
    detail: {
      data_source: entry.dataSource,
      account: accountText(a),
      ...(schedule ? { schedule } : {}),
      ...(paused !== undefined ? { paused } : {}),
    },
  };
  withWork<ExtractWork>(change, {
    templateId: templateOfExtract(e) ?? '',
    accountId: a.id,
    table: { id: undefined, dataSource: entry.dataSource },
    schedule: schedule?.now,
    paused,
  });
  out.changes.push(change);
}
