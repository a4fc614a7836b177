import { setAccountsExtraction } from '../api/accounts.js';
import {
  createDestinationConnection,
  listDestinationConnections,
  putDestinationConnection,
  type DestinationConnection,
} from '../api/destinations.js';
import { createExtract, listExtracts, patchExtract, setExtractPaused, type Extract } from '../api/extracts.js';
import type { Service } from '../api/service.js';
import { setSelectedFields } from '../api/tables.js';
import type { Schedule } from '../contract/extraction.js';
import { OutcomeUnknownError } from '../errors.js';
import { collect } from '../util/collect.js';
import { idText } from '../util/json.js';
import type { AccountsWork } from './plan/accounts.js';
import type { DestinationWork } from './plan/destinations.js';
import { extractAccount, templateOfExtract, type ExtractWork } from './plan/extracts.js';
import { workOf } from './plan/work.js';
import type { KindChange, KindResource } from './plan/kinds-types.js';
import type { TableWork } from './plan/tables.js';
import type { Change } from './plan/types.js';
import { sentValue } from './values.js';

/**
 * Carrying out a planned change of an extract, a destination connection, accounts or a data
 * table. Setting accounts' extraction flags, an extract's schedule or pause, a table's whole
 * selection and a connection's parameters leave the same state when repeated, so a lost answer
 * is repeated as any read is; a create is not: after a lost answer the objects are read again
 * (docs/contract-rules.md, Retries 3) and the one created is taken.
 */

const KINDS: readonly string[] = ['extract', 'destination', 'account', 'table'] satisfies KindResource[];

export function isKindChange(c: Change): c is KindChange {
  return KINDS.includes(c.resource);
}

/** The name of a change's row: an extract's is its template and account, the rest their own. */
export function kindRowName(c: KindChange): string {
  return c.resource === 'extract' ? `${c.name} (${c.detail.account})` : c.name;
}

/** Blocked items of the kinds that are the contract's refusals (exit 6) and things not found (exit 5); any other is bad input. */
export const KIND_CONFLICTS: readonly string[] = [
  'dimension_deselect_not_allowed',
  'secret_fields_incomplete',
  'extract_paused_by_service',
  'destination_ambiguous',
];
export const KIND_NOT_FOUND: readonly string[] = [
  'destination_not_found',
  'table_not_found',
  'account_inactive',
  'template_not_found',
];

/** A lost answer is resolved by re-reading, a bounded number of times. */
const OUTCOME_ATTEMPTS = 5;

/**
 * What became of a change: the object's id and state, and for an extract the plan would create
 * that was there already (a recipe's build makes them), its id: `taken` as it is.
 */
export async function applyKindChange(
  api: Service,
  ws: string,
  c: KindChange,
): Promise<{ id?: unknown; state?: string | null; taken?: string }> {
  switch (c.resource) {
    case 'account': {
      const work = workOf<AccountsWork>(c);
      for (const x of work?.connections ?? []) {
        if (x.enable.length > 0) await setAccountsExtraction(api, ws, x.connectionId, x.enable, true);
        if (x.disable.length > 0) await setAccountsExtraction(api, ws, x.connectionId, x.disable, false);
      }
      return {};
    }
    case 'destination': {
      const work = workOf<DestinationWork>(c)!;
      const params = sentValue(work.params) as Record<string, unknown>;
      if (c.action === 'create') {
        const made = await createOrAdoptConnection(api, ws, work, params);
        return { id: made.id, state: made.status ?? null };
      }
      const changed = await putDestinationConnection(api, ws, work.destination, idText(c.id), params);
      return { id: changed.id, state: changed.status ?? null };
    }
    case 'table': {
      const work = workOf<TableWork>(c)!;
      await setSelectedFields(api, ws, work.tableId, work.selected);
      return {};
    }
    case 'extract': {
      const work = workOf<ExtractWork>(c)!;
      let e: Extract;
      let taken: string | undefined;
      if (c.action === 'create') {
        const made = await createOrAdopt(api, ws, work);
        e = made.extract;
        if (work.table.id === undefined && e.data_table_id !== undefined) work.table.id = idText(e.data_table_id);
        if (made.adopted) {
          taken = idText(e.id);
          const schedule = (e as { schedule?: unknown }).schedule;
          if (work.schedule !== undefined && schedule !== work.schedule)
            e = await patchExtract(api, ws, idText(e.id), { schedule: work.schedule as Schedule });
        }
      } else {
        e = { id: c.id } as Extract;
        if (work.schedule !== undefined)
          e = await patchExtract(api, ws, idText(c.id), { schedule: work.schedule as Schedule });
      }
      if (work.paused !== undefined && (c.action === 'update' || work.paused))
        e = await setExtractPaused(api, ws, idText(e.id), work.paused);
      return {
        id: e.id,
        state: e.is_paused === undefined ? null : e.is_paused ? 'paused' : (e.status ?? null),
        ...(taken === undefined ? {} : { taken }),
      };
    }
  }
}

/**
 * Creates a destination connection. A create is not repeated blindly (a second would be a second
 * connection): after a lost answer the workspace's connections are read again, and one of the
 * title (the plan found none) is the one created.
 */
async function createOrAdoptConnection(
  api: Service,
  ws: string,
  work: DestinationWork,
  params: Record<string, unknown>,
): Promise<DestinationConnection> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createDestinationConnection(api, ws, work.destination, work.title, params);
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError) || attempt >= OUTCOME_ATTEMPTS) throw err;
      const landed = (await collect(listDestinationConnections(api, ws, work.destination))).find(
        (x) => x.title === work.title,
      );
      if (landed) return landed;
    }
  }
}

/**
 * Creates an extract, unless one of the template and account is there now: the plan found none,
 * but a recipe built earlier in the same apply makes the extracts it needs. After a lost answer,
 * an extract of the template and account is the one created.
 */
async function createOrAdopt(
  api: Service,
  ws: string,
  work: ExtractWork,
): Promise<{ extract: Extract; adopted: boolean }> {
  const { templateId, accountId, table } = work;
  const find = (all: Extract[]) =>
    all.find((e) => templateOfExtract(e) === templateId && extractAccount(e) === accountId);
  const found = find(await (table.found ??= collect(listExtracts(api, ws, { datasourceNames: [table.dataSource] }))));
  if (found) return { extract: found, adopted: true };
  for (let attempt = 1; ; attempt++) {
    try {
      const schedule = work.schedule as Schedule | undefined;
      return {
        extract: await createExtract(api, ws, { templateId, accountId, dataTableId: table.id, schedule }),
        adopted: false,
      };
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError) || attempt >= OUTCOME_ATTEMPTS) throw err;
      const landed = find(await collect(listExtracts(api, ws, { datasourceNames: [table.dataSource] })));
      if (landed) return { extract: landed, adopted: false };
    }
  }
}
