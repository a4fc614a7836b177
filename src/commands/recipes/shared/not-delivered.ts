import type { Recipe, SourceEntry } from '../../../api/recipes.js';
import type { Service } from '../../../api/service.js';
import { listAccounts, listAccountsV3 } from '../../../api/accounts.js';
import { collect } from '../../../util/collect.js';
import { idText } from '../../../util/json.js';
import { suggest } from '../../../util/suggest.js';

/**
 * Why a build left an account out, in words, and what to run next. The contract keeps `reason`
 * an open set: a reason not listed here is shown as it comes, with a generic next step.
 */
interface ReasonHelp {
  meaning: string;
  next: (at: EntryPlace) => string;
}

export interface EntryPlace {
  recipeId: string;
  ws: string;
  extractionId: string;
  accountId: string;
  connectionId: string | undefined;
  dataSource: string;
}

export const NOT_DELIVERED_REASONS: Record<string, ReasonHelp> = {
  timed_out: {
    meaning: 'its extraction was still running when the build stopped waiting; its rows come with a later build',
    next: (p) =>
      `${suggest(['extracts', 'get', p.extractionId], { workspace: p.ws })}   # once its run completed: ${suggest(['recipes', 'build', p.recipeId, '--wait'], { workspace: p.ws })}`,
  },
  extraction_failed: {
    meaning: 'its extraction failed',
    next: (p) => suggest(['extracts', 'run', p.extractionId, '--wait'], { workspace: p.ws }),
  },
  account_disabled: {
    meaning: 'the account is inactive or not enabled for extraction',
    next: (p) =>
      p.connectionId
        ? suggest(['accounts', 'enable', '--connection', p.connectionId, p.accountId], { workspace: p.ws })
        : suggest(['accounts', 'list', '--connection', 'CONNECTION', '--search', p.accountId], { workspace: p.ws }),
  },
  connection_deleted: {
    meaning: 'its connection was deleted; connect the data source again and configure the new connection',
    next: (p) => suggest(['iframe-url', '--type', 'datasource', '--name', p.dataSource], { workspace: p.ws }),
  },
  manual: {
    meaning: 'its extraction was paused by hand',
    next: (p) => suggest(['extracts', 'unpause', p.extractionId], { workspace: p.ws }),
  },
  paused: {
    meaning: 'its extraction is paused',
    next: (p) => suggest(['extracts', 'get', p.extractionId], { workspace: p.ws }),
  },
  migrated: {
    meaning: 'its extraction was replaced by one on a wide template and paused',
    next: (p) => suggest(['recipes', 'resetup', p.recipeId, '--wait'], { workspace: p.ws }),
  },
  not_running: {
    meaning: 'its extraction has no run going',
    next: (p) => suggest(['extracts', 'run', p.extractionId, '--wait'], { workspace: p.ws }),
  },
};

/** Not-delivered entries shown per source before "and N more". */
export const NOT_DELIVERED_SHOWN = 5;

/** Accounts by internal id (and by remote id, which some answers may carry): title and remote id. */
export type AccountNames = Map<string, { title?: string | undefined; remote?: string | undefined }>;

/** Bound on the accounts read per connection to find remote ids (the v3 list has no search). */
const REMOTE_LOOKUP_LIMIT = 1000;

function shownEntries(s: SourceEntry) {
  return (s.not_delivered ?? []).slice(0, NOT_DELIVERED_SHOWN);
}

function connectionOf(r: Recipe, dataSource: string): string | undefined {
  const c = (r.connections ?? []).find((x) => x.connection_data_source === dataSource);
  return c ? idText(c.connection_id) : undefined;
}

/**
 * Titles and remote ids of the accounts a build left out, read only when there are some, and
 * only for the entries that are shown: the v3.1 list's search by id (one page each) gives the
 * title, the v3 list (up to a bound) the remote id. A lookup that fails leaves the ids alone.
 */
export async function accountNamesFor(api: Service, ws: string, r: Recipe): Promise<AccountNames> {
  const names: AccountNames = new Map();
  const byConnection = new Map<string, Set<string>>();
  for (const s of r.sources ?? []) {
    const conn = connectionOf(r, s.data_source);
    if (!conn) continue;
    for (const n of shownEntries(s)) {
      const set = byConnection.get(conn) ?? new Set<string>();
      set.add(idText(n.account_id));
      byConnection.set(conn, set);
    }
  }
  await Promise.all(
    [...byConnection].map(async ([conn, ids]) => {
      try {
        const v3 = await collect(listAccountsV3(api, ws, conn, { limit: REMOTE_LOOKUP_LIMIT }));
        for (const a of v3) {
          const entry = { title: a.title, remote: idText(a.account_id) };
          if (ids.has(idText(a.id))) names.set(idText(a.id), entry);
          // An entry that names the remote id is understood too.
          if (ids.has(idText(a.account_id)) && !names.has(idText(a.account_id))) names.set(idText(a.account_id), entry);
        }
      } catch {
        // names are a help, not a condition
      }
      await Promise.all(
        [...ids]
          .filter((id) => !names.get(id)?.title && /^\d+$/.test(id))
          .map(async (id) => {
            try {
              const found = await collect(listAccounts(api, ws, conn, { search: id }, { limit: 100 }));
              const a = found.find((x) => idText(x.id) === id);
              if (a) names.set(id, { ...names.get(id), title: a.title });
            } catch {
              // as above
            }
          }),
      );
    }),
  );
  return names;
}

export function hasNotDelivered(r: Recipe): boolean {
  return (r.sources ?? []).some((s) => (s.not_delivered_count ?? s.not_delivered?.length ?? 0) > 0);
}

/** A line about an account left out: prose (fitted to the window) or a command (never broken). */
export interface EntryLine {
  text: string;
  command?: boolean;
}

/**
 * Lines for a person about one source: each shown entry with the account's title and remote id,
 * then what the reason means, and the command to run next on a line of its own (`ws` absent: no
 * commands).
 */
export function sourceEntryLines(r: Recipe, s: SourceEntry, names: AccountNames, ws: string | undefined): EntryLine[] {
  const out: EntryLine[] = [];
  const recipeId = idText(r.recipe_id);
  const count = s.not_delivered_count ?? s.not_delivered?.length ?? 0;
  const shown = shownEntries(s);
  for (const n of shown) {
    const accountId = idText(n.account_id);
    const name = names.get(accountId);
    const who = name
      ? [name.title ? `"${name.title}"` : undefined, name.remote ? `remote id ${name.remote}` : undefined]
          .filter(Boolean)
          .join(', ')
      : '';
    out.push({
      text: `  extraction ${idText(n.extraction_id)}, account ${accountId}: ${n.reason}${who ? `  ${who}` : ''}`,
    });
    const help = NOT_DELIVERED_REASONS[n.reason];
    const place: EntryPlace = {
      recipeId,
      ws: ws ?? '',
      extractionId: idText(n.extraction_id),
      accountId,
      connectionId: connectionOf(r, s.data_source),
      dataSource: s.data_source,
    };
    const next = ws
      ? help
        ? help.next(place)
        : suggest(['extracts', 'get', place.extractionId], { workspace: ws })
      : undefined;
    out.push({ text: `    ${help ? help.meaning : 'a reason this version of edp does not know'}` });
    if (next) out.push({ text: `    next: ${next}`, command: true });
  }
  if (count > shown.length) out.push({ text: `  and ${count - shown.length} more` });
  return out;
}

/** The last line after not-delivered entries: how to build again once they are fixed. */
export function rebuildLine(r: Recipe, ws: string): string {
  return `Once fixed, build again: ${suggest(['recipes', 'build', idText(r.recipe_id), '--wait'], { workspace: ws })}`;
}
