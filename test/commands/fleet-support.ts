import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers.js';

/** Shared pieces of the fleet tests (export, plan, apply). */

export const FAST = ['--poll-interval', '10ms'];

export const files = tempDir('edp-fleet-');

export function writeFile(name: string, text: string): string {
  const p = join(files.dir, name);
  writeFileSync(p, text);
  return p;
}

/** The remote account id of the i-th active account of a demo connection (the same in every workspace). */
export function remoteOf(sb: Sandbox, ws: number, ds: string, i: number): string {
  const s = sb.store.state;
  const c = s.connections.find((x) => x.workspace_id === ws && x.datasource_name === ds && !x.deleted)!;
  return s.accounts.filter((a) => a.connection_id === c.id && a.is_active)[i]!.account_id;
}

/** What a plan or apply must never change unasked, for before/after comparisons. */
export function writable(sb: Sandbox): string {
  const s = sb.store.state as any;
  return JSON.stringify({ recipes: s.recipes, endpoints: s.webhook_endpoints ?? null, roles: s.roles, accounts: s.accounts, extracts: s.extracts });
}

export const recipesOf = (sb: Sandbox, ws: number) => sb.store.state.recipes.filter((r) => r.workspace_id === ws && !r.intermediate);
export const endpointsOf = (sb: Sandbox, ws: number) => ((sb.store.state as any).webhook_endpoints ?? []).filter((e: any) => e.workspace_id === ws);
