/**
 * What names the workspaces of a fleet file, apart from its parser so that the modules that
 * resolve them (select.ts) and those of each section of the file can name them without it.
 */

/** A `workspaces:` scope: `all`, or selectors (workspace ids, `all`, `title:TEXT`, `group:NAME`; select.ts resolves them). */
export type Scope = string[] | 'all';

/** A client of the agency: one workspace, by title (created when missing) or pinned by id (renamed). */
export interface ClientEntry {
  title: string;
  id?: string | undefined;
  groups: string[];
  vars: Record<string, string>;
}
