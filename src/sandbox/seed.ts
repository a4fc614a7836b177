import type { Store } from './store.js';
import type { Account, Connection, Destination, Field } from './types.js';

/**
 * The demo agency: three workspaces, several data sources with a connection each per
 * workspace, and accounts whose remote `account_id`s repeat across workspaces under different
 * internal ids (docs/contract-rules.md, Deployment sequence step 4). Deterministic per --seed.
 */
export const DEMO_WORKSPACES = ['Acme Retail', 'Globex Media', 'Initech Apps'];

export const DEMO_DATASOURCES = [
  {
    name: 'google_ads',
    title: 'Google Ads',
    category: 'Advertising',
    lists_accounts_before_connection: true,
    currency: 'USD',
    prefix: '123-456-78',
  },
  {
    name: 'facebook_ads',
    title: 'Facebook Ads',
    category: 'Advertising',
    lists_accounts_before_connection: true,
    currency: 'EUR',
    prefix: 'act_10000',
  },
  {
    name: 'linkedin_ads',
    title: 'LinkedIn Ads',
    category: 'Advertising',
    lists_accounts_before_connection: false,
    currency: 'USD',
    prefix: '5080',
  },
  {
    name: 'google_analytics_4',
    title: 'Google Analytics 4',
    category: 'Web Analytics',
    lists_accounts_before_connection: true,
    currency: null,
    prefix: 'properties/3100',
  },
];

/** The destinations the service offers (kinds a destination connection is made of). */
export const DESTINATION_KINDS: readonly Destination[] = [
  { name: 's3', title: 'Amazon S3', supports_recipes: true, reports_tables: true },
  { name: 'bigquery', title: 'Google BigQuery', supports_recipes: true, reports_tables: true },
  { name: 'sftp', title: 'SFTP', supports_recipes: false, reports_tables: false },
];

/** Accounts per demo connection; the last one of each is inactive. */
export const ACCOUNTS_PER_CONNECTION = 6;

const ACCOUNT_NAMES = [
  'Brand',
  'Performance',
  'Retargeting',
  'Search US',
  'Display EU',
  'Legacy',
  'App Installs',
  'Video',
];

/**
 * What the service offers every agency, with the demo data and with a fixture alike: the agency
 * recipes and their dashboards, the data sources, the global extraction templates of each and
 * the destination kinds.
 */
export function seedCatalog(store: Store): void {
  const s = store.state;
  const now = store.clock.iso();
  s.agency_recipes.push(
    {
      id: 501,
      title: 'Paid Media Overview',
      description: 'Spend, clicks and conversions across ad platforms',
      dashboards: [
        { id: 9001, title: 'Paid Media Overview', type: 'DATA' },
        { id: 9002, title: 'Paid Media Slides', type: 'VISUAL' },
      ],
    },
    {
      id: 502,
      title: 'Web Analytics Funnel',
      description: 'Sessions to conversions',
      dashboards: [{ id: 9003, title: 'Funnel', type: 'DATA' }],
    },
    {
      id: 503,
      title: 'Executive Summary',
      description: 'One page for leadership',
      dashboards: [{ id: 9004, title: 'Executive Summary', type: 'VISUAL' }],
    },
  );

  for (const ds of DEMO_DATASOURCES) {
    s.datasources.push({
      name: ds.name,
      title: ds.title,
      category: ds.category,
      lists_accounts_before_connection: ds.lists_accounts_before_connection,
    });
  }
  for (const ds of DEMO_DATASOURCES) addGlobalTemplates(store, ds, now);

  s.destinations.push(...DESTINATION_KINDS.map((d) => ({ ...d })));
}

/** The demo agency's users, workspaces, connections, accounts and destination connections. */
export function seedCore(store: Store): void {
  const s = store.state;
  const now = store.clock.iso();
  s.users.push(
    {
      id: store.nextId('user'),
      email: store.opts.username,
      password: store.opts.password,
      first_name: 'Avery',
      last_name: 'Chief',
      is_active: true,
      is_agency_chief: true,
      is_agency_owner: true,
      workspace_ids: [],
    },
    {
      id: store.nextId('user'),
      email: 'analyst@sandbox.local',
      password: 'sandbox',
      first_name: 'Blake',
      last_name: 'Analyst',
      is_active: true,
      is_agency_chief: false,
      is_agency_owner: false,
      workspace_ids: [],
    },
    {
      id: store.nextId('user'),
      email: 'former@sandbox.local',
      password: 'sandbox',
      first_name: 'Casey',
      last_name: 'Former',
      is_active: false,
      is_agency_chief: false,
      is_agency_owner: false,
      workspace_ids: [],
    },
  );
  for (const title of DEMO_WORKSPACES) {
    const id = store.nextId('workspace');
    s.workspaces.push({ id, title, created_at: now });
  }
  const [chief, analyst, former] = s.users;
  chief!.workspace_ids = s.workspaces.map((w) => w.id);
  analyst!.workspace_ids = [s.workspaces[0]!.id];
  former!.workspace_ids = [s.workspaces[0]!.id];

  for (const ws of s.workspaces) {
    for (const ds of DEMO_DATASOURCES) {
      const connection = addConnection(store, ws.id, ds.name, `${ds.title} (${ws.title})`, now);
      for (let i = 0; i < ACCOUNTS_PER_CONNECTION; i++) {
        s.accounts.push(makeAccount(store, connection.id, ws.id, ds, i, i < ACCOUNTS_PER_CONNECTION - 1, now));
      }
    }
  }
  // --scale N: one more connection (in the first workspace) holding N x 100 accounts, for paging benchmarks.
  if (store.opts.scale > 1) {
    const ws = s.workspaces[0]!;
    const ds = DEMO_DATASOURCES[0]!;
    const connection = addConnection(
      store,
      ws.id,
      ds.name,
      `${ds.title} bulk (${store.opts.scale * 100} accounts)`,
      now,
    );
    for (let i = 0; i < store.opts.scale * 100; i++) {
      s.accounts.push(makeAccount(store, connection.id, ws.id, { ...ds, prefix: '900-' }, i, true, now));
    }
  }

  for (const ws of s.workspaces) addS3Destination(store, ws, now);
}

/** A live connection of a workspace to a data source, added to the state. */
export function addConnection(
  store: Store,
  workspaceId: number,
  datasourceName: string,
  title: string,
  now: string,
): Connection {
  const connection = {
    id: store.nextId('connection'),
    workspace_id: workspaceId,
    datasource_name: datasourceName,
    title,
    created_at: now,
    deleted: false,
  };
  store.state.connections.push(connection);
  return connection;
}

/**
 * A workspace's active S3 destination connection as the demo workspaces have it: with AWS keys,
 * since `aws_credentials` needs them and a merge update that omits them keeps the stored ones.
 */
export function addS3Destination(store: Store, ws: { id: number; title: string }, now: string): void {
  store.state.destination_connections.push({
    id: store.nextId('destination_connection'),
    workspace_id: ws.id,
    destination_name: 's3',
    title: `S3 warehouse (${ws.title})`,
    status: 'active',
    created_at: now,
    connection_params: {
      connection_option: 'aws_credentials',
      bucket: `edp-sandbox-${ws.id}`,
      region: 'us-east-1',
      aws_access_key_id: `AKIASANDBOX${ws.id}`,
      aws_secret_access_key: store.secret(20),
      filename: '{{table_name}}/{{date}}.csv',
      file_format: 'csv',
    },
  });
}

const f = (name: string, format: string, user_type: string): Field => ({ name, format, user_type, is_dynamic: false });

/** Global extraction templates every demo data source offers: a fixed report and a wide one. */
/** The global extraction templates every data source has, for one data source. */
export function addGlobalTemplates(store: Store, ds: { name: string; title: string }, now: string): void {
  for (const t of GLOBAL_TEMPLATES)
    store.state.extract_templates.push({
      id: store.nextId('extract_template'),
      datasource_name: ds.name,
      title: `${ds.title} ${t.title}`,
      sql_name: `${ds.name}_${t.sql}`,
      is_wide_template: t.wide,
      parent_id: null,
      allows_dimension_selection: t.wide,
      agency_id: null,
      fields: t.fields,
      created_at: now,
    });
}

export const GLOBAL_TEMPLATES = [
  {
    title: 'Campaign performance',
    sql: 'campaign_performance',
    wide: false,
    fields: [
      f('date', 'iso_8601_date', 'dimension'),
      f('campaign_id', 'string', 'dimension'),
      f('campaign_name', 'string', 'dimension'),
      f('impressions', 'integer', 'metric'),
      f('clicks', 'integer', 'metric'),
      f('spend', 'currency', 'metric'),
      f('ctr', 'percent', 'metric'),
      f('conversions', 'float', 'metric'),
    ],
  },
  {
    title: 'Custom report',
    sql: 'custom_report',
    wide: true,
    fields: [
      f('date', 'iso_8601_date', 'dimension'),
      f('campaign_name', 'string', 'dimension'),
      f('ad_name', 'string', 'dimension'),
      f('landing_page', 'url', 'dimension'),
      f('thumbnail', 'image_url', 'dimension'),
      f('impressions', 'integer', 'metric'),
      f('spend', 'currency', 'metric'),
      f('video_watch_time', 'duration', 'metric'),
      f('engagement_score', 'float', 'metric'),
    ],
  },
];

function makeAccount(
  store: Store,
  connectionId: number,
  workspaceId: number,
  ds: { name: string; currency: string | null; prefix: string },
  index: number,
  active: boolean,
  now: string,
): Account {
  const remote = `${ds.prefix}${String(index + 1).padStart(2, '0')}`;
  const name = ACCOUNT_NAMES[index % ACCOUNT_NAMES.length]!;
  return {
    id: store.nextId('account'),
    workspace_id: workspaceId,
    connection_id: connectionId,
    datasource_name: ds.name,
    account_id: remote,
    title: index < ACCOUNT_NAMES.length ? `${name} ${remote}` : `Account ${remote}`,
    currency: ds.currency,
    is_active: active,
    enabled_for_embedded_extraction: active && index % 2 === 0,
    additional_params: {},
    item: { remote_id: remote, name, timezone: 'UTC' },
    created_at: now,
    updated_at: now,
  };
}
