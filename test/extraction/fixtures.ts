import type { Sandbox } from '../../src/sandbox/index.js';
import { http, tokenFor } from '../helpers.js';

/** Demo data looked up by meaning rather than by id, so that other areas' seeds cannot shift it. */
export function demo(sb: Sandbox, wsId = 101) {
  const s = sb.store.state;
  const connection = (ds: string) => s.connections.find((c) => c.workspace_id === wsId && c.datasource_name === ds && !c.deleted)!;
  const accounts = (ds: string) => s.accounts.filter((a) => a.connection_id === connection(ds).id);
  const template = (ds: string, wide: boolean) => s.extract_templates.find((t) => t.agency_id === null && t.datasource_name === ds && t.is_wide_template === wide)!;
  const table = s.data_tables.find((t) => t.workspace_id === wsId && t.title === 'Google Ads campaigns')!;
  const s3 = s.destination_connections.find((d) => d.workspace_id === wsId && d.destination_name === 's3')!;
  return { connection, accounts, template, table, s3 };
}

/** A raw call with a workspace token. */
export function bearer(sb: Sandbox, wsId = 101) {
  let token: string | undefined;
  return async (method: string, path: string, body?: unknown) => {
    token ??= await tokenFor(sb, wsId);
    return http(sb, method, path, { token, ...(body !== undefined ? { body } : {}) });
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the check holds (runs complete after --build-seconds). */
export async function until(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(20);
  }
}
