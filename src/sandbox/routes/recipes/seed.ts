import { ACCOUNTS_PER_CONNECTION, DEMO_DATASOURCES, addConnection, addS3Destination } from '../../seed.js';
import { SYSTEM_FIELD_NAMES } from '../extraction/model.js';
import type { Store } from '../../store.js';
import type { OutputColumn, RecipeTemplate } from './model.js';

const col = (name: string, type: string): OutputColumn => ({ name, type });

const PAID_MEDIA_COLUMNS = [
  col('date', 'date'),
  col('data_source', 'string'),
  col('campaign_name', 'string'),
  col('impressions', 'integer'),
  col('clicks', 'integer'),
  col('spend', 'float'),
  col('conversions', 'float'),
];

type TemplateSeed = Omit<RecipeTemplate, 'revision'>;

/**
 * Demo templates of both build modes. 4006's title gives the same output name as 4001's
 * (view_name_taken when both are created in one workspace); 4007 is not deployable; 4004 is
 * built on 4005, whose recipe becomes its intermediate recipe; 4003 needs two extraction
 * templates and has no output columns.
 */
export const DEMO_TEMPLATES: TemplateSeed[] = [
  {
    id: 4001,
    title: 'Paid Media Performance',
    description: 'Spend, clicks and conversions across ad platforms, one row per campaign and day.',
    origin: 'improvado',
    categories: ['Paid media'],
    build_mode: 'progressive',
    data_sources: ['google_ads', 'facebook_ads', 'linkedin_ads'],
    extract_kinds: ['campaign_performance'],
    children: [],
    level: 1,
    output_columns: PAID_MEDIA_COLUMNS,
    deployable: true,
  },
  {
    id: 4002,
    title: 'Cross-Channel Spend',
    description: 'Spend reconciled across channels; every channel must deliver.',
    origin: 'improvado',
    categories: ['Paid media', 'Finance'],
    build_mode: 'atomic',
    data_sources: ['google_ads', 'facebook_ads'],
    extract_kinds: ['campaign_performance'],
    children: [],
    level: 1,
    output_columns: [col('date', 'date'), col('data_source', 'string'), col('spend', 'float')],
    deployable: true,
  },
  {
    id: 4003,
    title: 'Web Analytics Funnel',
    description: 'Sessions to conversions from web analytics and search ads.',
    origin: 'improvado',
    categories: ['Web analytics'],
    build_mode: 'progressive',
    data_sources: ['google_analytics_4', 'google_ads'],
    extract_kinds: ['campaign_performance', 'custom_report'],
    children: [],
    level: 1,
    output_columns: [],
    deployable: true,
  },
  {
    id: 4004,
    title: 'Marketing Mix Summary',
    description: 'Executive summary built on the ad spend base recipe.',
    origin: 'agency',
    categories: ['Executive'],
    build_mode: 'progressive',
    data_sources: ['google_ads', 'facebook_ads'],
    extract_kinds: ['campaign_performance'],
    children: [4005],
    level: 2,
    output_columns: [col('month', 'date'), col('channel', 'string'), col('spend', 'float'), col('roas', 'float')],
    deployable: true,
  },
  {
    id: 4005,
    title: 'Ad Spend Base',
    description: 'Daily spend per campaign; the base other recipes are built on.',
    origin: 'improvado',
    categories: ['Paid media'],
    build_mode: 'progressive',
    data_sources: ['google_ads', 'facebook_ads'],
    extract_kinds: ['campaign_performance'],
    children: [],
    level: 1,
    output_columns: [col('date', 'date'), col('campaign_id', 'string'), col('spend', 'float')],
    deployable: true,
  },
  {
    id: 4006,
    title: 'Paid Media: Performance',
    description: 'An agency copy of Paid Media Performance; shares its output table name.',
    origin: 'agency',
    categories: ['Paid media'],
    build_mode: 'progressive',
    data_sources: ['google_ads', 'facebook_ads'],
    extract_kinds: ['campaign_performance'],
    children: [],
    level: 1,
    output_columns: PAID_MEDIA_COLUMNS,
    deployable: true,
  },
  {
    id: 4007,
    title: 'Attribution Model (draft)',
    description: 'Work in progress; not deployable yet.',
    origin: 'agency',
    categories: ['Attribution'],
    build_mode: 'atomic',
    data_sources: ['google_ads'],
    extract_kinds: ['campaign_performance'],
    children: [],
    level: 1,
    output_columns: [],
    deployable: false,
  },
];

export function seedRecipeTemplates(store: Store): void {
  for (const t of DEMO_TEMPLATES) {
    // System fields do not appear in recipe metadata, which lists only provider fields
    // (docs/contract-rules.md, What the service does).
    const system = t.output_columns.filter((c) => SYSTEM_FIELD_NAMES.has(c.name));
    if (system.length > 0)
      throw new Error(
        `recipe template ${t.id} lists system fields in output_columns: ${system.map((c) => c.name).join(', ')}`,
      );
    store.state.recipe_templates.push({ ...t, revision: 1 });
  }
}

/**
 * Gives a workspace what a deployment needs, as the demo workspaces have it: a connection per
 * demo data source with the same remote account ids (the last account inactive) and an active
 * S3 destination. For fleets of workspaces made through the API (benchmarks, tests).
 */
export function equipWorkspace(store: Store, workspaceId: number): void {
  const s = store.state;
  const ws = store.workspace(workspaceId);
  if (!ws) return;
  const now = store.clock.iso();
  for (const ds of DEMO_DATASOURCES) {
    if (s.connections.some((c) => c.workspace_id === workspaceId && c.datasource_name === ds.name && !c.deleted))
      continue;
    const connection = addConnection(store, workspaceId, ds.name, `${ds.title} (${ws.title})`, now);
    for (let i = 0; i < ACCOUNTS_PER_CONNECTION; i++) {
      const remote = `${ds.prefix}${String(i + 1).padStart(2, '0')}`;
      const active = i < ACCOUNTS_PER_CONNECTION - 1;
      s.accounts.push({
        id: store.nextId('account'),
        workspace_id: workspaceId,
        connection_id: connection.id,
        datasource_name: ds.name,
        account_id: remote,
        title: `Account ${remote}`,
        currency: ds.currency,
        is_active: active,
        enabled_for_embedded_extraction: active,
        additional_params: {},
        item: { remote_id: remote, timezone: 'UTC' },
        created_at: now,
        updated_at: now,
      });
    }
  }
  if (!s.destination_connections.some((d) => d.workspace_id === workspaceId && d.status === 'active'))
    addS3Destination(store, ws, now);
  store.changed();
}
