import { listWorkspaces } from '../api/workspaces.js';
import type { Service } from '../api/service.js';
import { collect } from '../util/collect.js';
import { idText } from '../util/json.js';

/** The workspaces a choice names: its ids, or every workspace of the agency. */
export async function workspacesOf(api: Service, choice: string[] | 'all'): Promise<string[]> {
  if (choice !== 'all') return choice;
  return (await collect(listWorkspaces(api))).map((w) => idText(w.id));
}
