/** What a deployment needs, from flags, a spec file, or prompts. */
export interface SourceSpec {
  dataSource: string;
  /** connection id; resolved per workspace when absent */
  connection?: string | undefined;
  /** account selectors: internal id, title, remote:ID, all-active */
  accounts: string[];
}

export interface DeploySpec {
  /** template id or exact title */
  template?: string | undefined;
  title?: string | undefined;
  sources: SourceSpec[];
  syncFrom?: string | undefined;
  /** explicit workspace ids, or every workspace of the agency */
  workspaces: string[] | 'all' | undefined;
  /** workspaces deployed at once; undefined: one per workspace, at most 16 (`auto`) */
  concurrency: number | undefined;
}
