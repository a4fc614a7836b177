import type { Store } from '../../store.js';
import { createTable, newExtract } from './extracts.js';
import { deliverRows, type Load } from './model.js';

/**
 * Demo data of a fresh sandbox: in each workspace, a "Google Ads campaigns" data table fed by
 * one delivered extract per active account selected for extraction, and a load of that table
 * to the workspace's S3 destination.
 */
export function seedExtraction(store: Store): void {
  const s = store.state;
  const now = store.clock.iso();
  const eventsBefore = s.events.length;
  const template = s.extract_templates.find(
    (t) => t.agency_id === null && t.datasource_name === 'google_ads' && !t.is_wide_template,
  );
  if (!template) return;
  for (const ws of s.workspaces) {
    const connection = s.connections.find(
      (c) => c.workspace_id === ws.id && c.datasource_name === 'google_ads' && !c.deleted,
    );
    if (!connection) continue;
    const accounts = s.accounts.filter(
      (a) => a.connection_id === connection.id && a.is_active && a.enabled_for_embedded_extraction,
    );
    if (accounts.length === 0) continue;
    const table = createTable(store, ws.id, template, 'Google Ads campaigns');
    for (const account of accounts) {
      const e = newExtract(store, account, template, table, {
        title: `Google Ads campaigns - ${account.title}`,
        schedule: 'daily',
        settings: {
          fields: template.fields.map((f) => f.name),
          additional_params: {},
          dynamic_fields: [],
          custom_filters: [],
        },
        syncFrom: null,
      });
      Object.assign(e, { status: 'completed', delivered: true, last_run_at: now });
      deliverRows(store, e);
    }
    const destination = s.destination_connections.find(
      (d) => d.workspace_id === ws.id && d.destination_name === 's3' && d.status === 'active',
    );
    if (!destination) continue;
    const load: Load = {
      id: store.nextId('load'),
      workspace_id: ws.id,
      title: `Google Ads campaigns to ${destination.title}`,
      data_table_id: table.id,
      destination_connection_id: destination.id,
      schedule: 'daily',
      is_paused: false,
      last_run: null,
      created_at: now,
      updated_at: now,
    };
    s.loads.push(load);
  }
  // Seeding is not something that happened: the demo data brings no events of its own.
  s.events.splice(eventsBefore);
}
