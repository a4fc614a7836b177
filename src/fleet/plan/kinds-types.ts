/**
 * The changes a plan lists for extracts, destination connections, accounts and data tables
 * (the fleet file's kinds-file.ts sections), in the plan's JSON document as every change is:
 * `{resource, name, action, id, detail}`. A secret value never appears in a detail: parameters
 * are shown with shownValue() (values.ts), secret fields by name only.
 */

export type KindResource = 'extract' | 'destination' | 'account' | 'table';

interface KindChangeOf<R extends KindResource, A extends string, D> {
  resource: R;
  /** the extract's template (as the file names it), the connection's title, the data source, the table */
  name: string;
  action: A;
  /** the existing object's id, null when it is to be created */
  id: unknown;
  detail: D;
}

export type KindChange =
  | KindChangeOf<
      'extract',
      'create',
      {
        data_source: string;
        template_id: unknown;
        /** the account, as export names it (remote:ID) */
        account: string;
        schedule: string | null;
        paused: boolean;
      }
    >
  | KindChangeOf<
      'extract',
      'update',
      {
        data_source: string;
        account: string;
        schedule?: { was: string | null; now: string } | undefined;
        paused?: boolean | undefined;
      }
    >
  | KindChangeOf<
      'destination',
      'create',
      {
        destination: string;
        /** the parameters sent, secret fields shown by name: `(secret)` or `(from env NAME)` */
        params: Record<string, unknown>;
      }
    >
  | KindChangeOf<
      'destination',
      'update',
      {
        destination: string;
        /** each parameter that differs, `{was, now}` */
        params: Record<string, { was: unknown; now: unknown }>;
        /** secret fields sent again (`--send-secrets`), by name */
        secrets: string[];
      }
    >
  | KindChangeOf<'account', 'update', { enable: string[]; disable: string[] }>
  | KindChangeOf<'table', 'update', { selected_fields: string[]; add: string[]; remove: string[] }>;
