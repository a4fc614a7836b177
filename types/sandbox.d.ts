// The types of `edp/sandbox` (dist/sandbox.d.mts in the package). Written by hand, and held to the
// implementation by the project's typecheck (src/sandbox/public.ts), the fixture to its schema
// (src/sandbox/fixture/schema.ts; docs/sandbox-fixture.schema.json is that schema as JSON Schema).

/** How a sandbox starts. */
export interface StartSandboxOptions {
  /** Port to listen on, on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /**
   * What the sandbox holds instead of its demo data: a fixture (an object) or the path of a
   * YAML or JSON file holding one. A fixture that is not valid rejects, naming each problem.
   */
  fixture?: SandboxFixture | string;
  /**
   * The sandbox's time at start (a Date, milliseconds since the epoch or ISO 8601 text); the
   * machine's by default. Time then stands still until `advance` moves it.
   */
  clock?: Date | number | string;
}

/** A running sandbox. */
export interface TestSandbox {
  /** Where it listens, e.g. `http://127.0.0.1:40123`: the base URL of the service (EDP_BASE_URL). */
  url: string;
  /** Moves its clock on and finishes the work that becomes due, in order (builds, runs, deliveries). */
  advance(seconds: number): Promise<void>;
  /** Back to the start: the fixture (or demo data), the clock at its start time, nothing in progress. */
  reset(): Promise<void>;
  /** Stops it. */
  close(): Promise<void>;
}

/** Starts a sandbox of the whole service on this machine, for a test suite. */
export declare function startSandbox(options?: StartSandboxOptions): Promise<TestSandbox>;

type WorkspaceRef = string | number;
type Permission = string | { layer: string; permission: string };

/** A fixture: the agency, its users, custom roles and workspaces. */
export interface SandboxFixture {
  agency: {
    /** the agency chief's user name, for Basic authentication */
    username: string;
    password: string;
    first_name?: string | undefined;
    last_name?: string | undefined;
    title?: string | undefined;
    whitelabel_title?: string | undefined;
    /** each on unless false */
    features?:
      | {
          recipe_pipeline?: boolean | undefined;
          external_auth_links?: boolean | undefined;
          can_use_embedded_api?: boolean | undefined;
        }
      | undefined;
  };
  /** users besides the agency chief */
  users?:
    | Array<{
        email: string;
        password?: string | undefined;
        first_name?: string | undefined;
        last_name?: string | undefined;
        active?: boolean | undefined;
        chief?: boolean | undefined;
        workspaces?: Array<WorkspaceRef | { workspace: WorkspaceRef; role?: string | undefined }> | undefined;
      }>
    | undefined;
  /** the agency's custom roles */
  roles?: Array<{ title: string; description?: string | undefined; permissions: Permission[] }> | undefined;
  /** data sources added to the catalogue */
  data_sources?:
    | Array<{
        name: string;
        title?: string | undefined;
        category?: string | undefined;
        lists_accounts_before_connection?: boolean | undefined;
      }>
    | undefined;
  /** recipe templates added to the catalogue */
  recipe_templates?:
    | Array<{
        id?: number | undefined;
        title: string;
        description?: string | undefined;
        build_mode?: 'progressive' | 'atomic' | undefined;
        data_sources: string[];
        deployable?: boolean | undefined;
        output_columns?: Array<{ name: string; type: string }> | undefined;
      }>
    | undefined;
  /** the agency's own extraction templates */
  extraction_templates?:
    | Array<{
        title: string;
        data_source: string;
        base?: 'campaign_performance' | 'custom_report' | undefined;
        fields?: string[] | undefined;
      }>
    | undefined;
  workspaces: Array<{
    id?: number | undefined;
    title: string;
    connections?:
      | Array<{
          data_source: string;
          title?: string | undefined;
          accounts?:
            | Array<{
                remote_id: string | number;
                title?: string | undefined;
                currency?: string | null | undefined;
                active?: boolean | undefined;
                enabled?: boolean | undefined;
              }>
            | undefined;
        }>
      | undefined;
    destinations?:
      | Array<{
          destination: string;
          title: string;
          status?: 'active' | 'inactive' | undefined;
          params?: Record<string, unknown> | undefined;
        }>
      | undefined;
    extracts?:
      | Array<{
          template: string;
          account: string | number;
          title?: string | undefined;
          schedule?: 'hourly' | 'daily' | 'weekly' | 'manual' | undefined;
          paused?: boolean | undefined;
          delivered?: boolean | undefined;
        }>
      | undefined;
    recipes?:
      | Array<{
          template: string | number;
          title?: string | undefined;
          sync_from_date?: string | undefined;
          sources: Array<{ data_source: string; connection?: string | undefined; accounts: Array<string | number> }>;
          built?: boolean | undefined;
        }>
      | undefined;
    webhooks?:
      | Array<{
          url: string;
          events: string[];
          status?: 'active' | 'unverified' | undefined;
          secret?: string | undefined;
        }>
      | undefined;
  }>;
}
