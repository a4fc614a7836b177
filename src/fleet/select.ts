import { listWorkspaces, type Workspace } from '../api/workspaces.js';
import type { Service } from '../api/service.js';
import { collect } from '../util/collect.js';
import { closest } from '../util/did-you-mean.js';
import { idText } from '../util/json.js';
import type { ClientEntry, Scope } from './scope.js';

/** The workspaces a choice names: its ids, or every workspace of the agency. */
export async function workspacesOf(api: Service, choice: string[] | 'all'): Promise<string[]> {
  if (choice !== 'all') return choice;
  return (await collect(listWorkspaces(api))).map((w) => idText(w.id));
}

/**
 * A workspace of a fleet: one the agency has, or a client's that apply creates. `key` is its id,
 * or `new:TITLE` for one to create (client titles are unique in a file).
 */
export interface FleetWorkspace {
  key: string;
  /** null until apply creates it */
  id: string | null;
  /** the title it has, or will have once the client's is set */
  title: string;
  client?: ClientEntry | undefined;
  /** the title the service has now, when the client's differs (a rename) */
  was?: string | undefined;
}

export const isNewKey = (key: string) => key.startsWith('new:');

type Problem = { path: Array<string | number>; message: string; suggestion?: string | null };

/**
 * Every workspace of the fleet: the agency's (read once), each with its client, and then the
 * clients' workspaces that do not exist yet. A client pinned by `id` is that workspace; one
 * without is the workspace of its title, or a new one. `missing`: client ids the agency lacks.
 */
export function fleetWorld(
  live: Array<Pick<Workspace, 'id' | 'title'>>,
  clients: ClientEntry[],
): { all: FleetWorkspace[]; problems: Problem[]; missing: string[] } {
  const problems: Problem[] = [];
  const missing: string[] = [];
  const all: FleetWorkspace[] = live.map((w) => ({ key: idText(w.id), id: idText(w.id), title: String(w.title) }));
  const byId = new Map(all.map((w) => [w.key, w]));
  const claim = (w: FleetWorkspace, c: ClientEntry, i: number) => {
    if (w.client) {
      problems.push({
        path: ['clients', i],
        message: `workspace ${w.key} is already the workspace of client "${w.client.title}"; a workspace is one client's`,
      });
      return;
    }
    if (w.title !== c.title) w.was = w.title;
    w.client = c;
    w.title = c.title;
  };
  // The pinned clients first, so that a title matched below never takes a pinned workspace.
  clients.forEach((c, i) => {
    if (c.id === undefined) return;
    const w = byId.get(c.id);
    if (w) claim(w, c, i);
    else missing.push(c.id);
  });
  clients.forEach((c, i) => {
    if (c.id !== undefined) return;
    const titled = all.filter((w) => w.id !== null && (w.was ?? w.title) === c.title && w.client !== c);
    if (titled.length > 1)
      problems.push({
        path: ['clients', i, 'title'],
        message: `${titled.length} workspaces are titled "${c.title}" (${titled.map((w) => w.key).join(', ')}); pin the client's with id`,
      });
    else if (titled.length === 1) claim(titled[0]!, c, i);
    else all.push({ key: `new:${c.title}`, id: null, title: c.title, client: c });
  });
  return { all, problems, missing };
}

/**
 * The workspaces a scope selects, by key, in the fleet's order: ids as given (whether the agency
 * has them is checked by the caller), `all`, `title:TEXT` (every workspace of that title, a
 * client's by its own), `group:NAME` (the clients in that group). A title no workspace has is a
 * problem at the selector's path, with the nearest title.
 */
export function selectWorkspaces(
  scope: Scope,
  all: FleetWorkspace[],
  path: Array<string | number>,
  problems: Problem[],
): string[] {
  if (scope === 'all' || scope.includes('all')) return all.map((w) => w.key);
  const keys = new Set<string>();
  scope.forEach((s, j) => {
    if (s.startsWith('title:')) {
      const title = s.slice('title:'.length);
      const found = all.filter((w) => w.title === title);
      if (found.length === 0)
        problems.push({
          path: [...path, j],
          message: `no workspace is titled "${title}" (nor is a client)`,
          suggestion: closest(
            title,
            all.map((w) => w.title),
          )[0],
        });
      for (const w of found) keys.add(w.key);
    } else if (s.startsWith('group:')) {
      const group = s.slice('group:'.length);
      for (const w of all) if (w.client?.groups.includes(group)) keys.add(w.key);
    } else keys.add(s);
  });
  return [...keys];
}
