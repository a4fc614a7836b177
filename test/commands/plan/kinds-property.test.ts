import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, control, sandbox } from '../../helpers.js';
import { FAST, useFiles } from '../../fixtures/files.js';

/**
 * Plan is exact for the extracts, destinations, accounts and tables of a fleet file: for random
 * edits of an exported file, plan lists exactly the changes and blocked items the edits make,
 * apply carries them out, and a second plan has nothing left to do but what stays blocked.
 */

const writeFile = useFiles('edp-fleet-kinds-property-');

// The state every run starts from, the base file applied, is made once and kept as a snapshot;
// each run restores it (the state and the clock, as a fresh sandbox with the file applied would
// have them) and edits the export taken then.
let sb: Sandbox;
/** The export of the base state: parsed afresh (ids exact) for each run to edit. */
let exported: { json(): any };
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  const applied = await cli(sb, ['apply', '-f', writeFile('base.yaml', BASE), '--yes', ...FAST]);
  expect(applied.code, applied.stderr).toBe(0);
  const r = await cli(sb, ['export', '-w', '101', '--json']);
  expect(r.code, r.stderr).toBe(0);
  exported = r;
  await control(sb, 'PUT', '/snapshots/base');
});
afterAll(() => sb?.close());

const FB = 'Facebook Ads Campaign performance';
const TABLE = 'Google Ads campaigns';

const BASE = `workspaces: [101]
extracts:
  - template: ${FB}
    data_source: facebook_ads
    accounts: [all-active]
    schedule: weekly
destinations:
  - destination: s3
    title: Lake
    params: {bucket: agency-lake, region: eu-west-1, aws_access_key_id: AKIAPROPERTY, aws_secret_access_key: property-secret}
accounts:
  - data_source: google_ads
    enabled: [all-active]
tables:
  - table: ${TABLE}
    selected_fields: [date, campaign_id, campaign_name, impressions, clicks]
`;

/** The remote ids of the active accounts of a data source in workspace 101. */
function activeRemotes(ds: string): string[] {
  const s = sb.store.state as any;
  const c = s.connections.find((x: any) => x.workspace_id === 101 && x.datasource_name === ds && !x.deleted);
  return s.accounts.filter((a: any) => a.connection_id === c.id && a.is_active).map((a: any) => a.account_id);
}

const edits = fc.record({
  schedule: fc.constantFrom('hourly', 'daily', 'weekly'),
  paused: fc.option(fc.boolean(), { nil: undefined }),
  dropAccount: fc.boolean(),
  region: fc.boolean(),
  newDestination: fc.boolean(),
  oneGoogleAccount: fc.boolean(),
  addField: fc.boolean(),
  dropDimension: fc.boolean(),
  unknownTemplate: fc.boolean(),
});
type Edits = typeof edits extends fc.Arbitrary<infer T> ? T : never;

/** The edited document, and what plan must say: `resource:action:name`, `resource:code:name`. */
function edit(doc: any, e: Edits) {
  const changes = new Set<string>();
  const blocked = new Set<string>();
  const notes = new Set<string>();
  const fb = doc.extracts.find((x: any) => x.template === FB);
  if (e.schedule !== 'weekly') {
    fb.schedule = e.schedule;
    changes.add(`extract:update:${FB}`);
  }
  if (e.paused !== undefined) {
    fb.paused = e.paused;
    if (e.paused) changes.add(`extract:update:${FB}`);
  } else delete fb.paused;
  if (e.dropAccount) {
    // The service has no delete for extracts: the one left out stays, with a note.
    fb.accounts = activeRemotes('facebook_ads')
      .slice(0, -1)
      .map((r) => `remote:${r}`);
    notes.add(`extract:extract_not_in_file:${FB}`);
  }
  const lake = doc.destinations.find((d: any) => d.title === 'Lake');
  if (e.region) {
    lake.params.region = 'us-east-2';
    changes.add('destination:update:Lake');
  }
  if (e.newDestination) {
    doc.destinations.push({
      destination: 's3',
      title: 'Archive',
      params: { connection_option: 'bucket_policy', bucket: 'agency-archive' },
    });
    changes.add('destination:create:Archive');
  }
  if (e.oneGoogleAccount) {
    doc.accounts.find((a: any) => a.data_source === 'google_ads').enabled = [
      `remote:${activeRemotes('google_ads')[0]}`,
    ];
    changes.add('account:update:google_ads');
  }
  const table = doc.tables.find((t: any) => t.table === TABLE);
  if (e.dropDimension) {
    table.selected_fields = table.selected_fields.filter((f: string) => f !== 'campaign_id');
    blocked.add(`table:dimension_deselect_not_allowed:${TABLE}`);
  }
  if (e.addField) {
    table.selected_fields.push('spend');
    if (!e.dropDimension) changes.add(`table:update:${TABLE}`);
  }
  if (e.unknownTemplate) {
    doc.extracts.push({ template: 'No Such Template', data_source: 'google_ads', accounts: ['all-active'] });
    blocked.add('extract:template_not_found:No Such Template');
  }
  return { doc, changes, blocked, notes };
}

function listed(plan: any) {
  const [w] = plan.workspaces;
  expect(w.error, JSON.stringify(w.error)).toBeNull();
  return {
    changes: new Set<string>(w.changes.map((c: any) => `${c.resource}:${c.action}:${c.name}`)),
    blocked: new Set<string>(w.blocked.map((b: any) => `${b.resource}:${b.code}:${b.name}`)),
    notes: new Set<string>(w.notes.map((n: any) => `${n.resource}:${n.code}:${n.name}`)),
    all: w.changes,
  };
}

describe('plan is exact for the fleet kinds (property)', () => {
  it('for random edits of an exported file: plan lists exactly what differs, apply converges, a second plan is empty', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(edits, async (e) => {
        await control(sb, 'POST', '/snapshots/base/restore');
        const want = edit(exported.json(), e);
        const file = writeFile(`edited-${run++}.json`, JSON.stringify(want.doc, null, 2));
        const first = listed((await cli(sb, ['plan', '-f', file, '--json'])).json());
        expect([...first.changes].sort()).toEqual([...want.changes].sort());
        expect([...first.blocked].sort()).toEqual([...want.blocked].sort());
        expect([...first.notes].sort()).toEqual([...want.notes].sort());
        // The differing fields, in the changes' details.
        for (const c of first.all.filter((x: any) => x.resource === 'extract'))
          expect(c.detail).toMatchObject({
            ...(e.schedule !== 'weekly' ? { schedule: { was: 'weekly', now: e.schedule } } : {}),
            ...(e.paused ? { paused: true } : {}),
          });
        const table = first.all.find((c: any) => c.resource === 'table');
        if (table) expect(table.detail).toMatchObject({ add: ['spend'], remove: [] });

        const apply = await cli(sb, ['apply', '-f', file, '--yes', '--json', ...FAST]);
        // A refusal of the contract is 6, a template not found 5; both together 1.
        const codes = new Set([...want.blocked].map((b) => (b.includes(':template_not_found:') ? 5 : 6)));
        expect(apply.code, apply.stderr).toBe(codes.size === 0 ? 0 : codes.size === 1 ? [...codes][0] : 1);

        const second = listed((await cli(sb, ['plan', '-f', file, '--json'])).json());
        expect([...second.changes]).toEqual([]);
        expect([...second.blocked].sort()).toEqual([...want.blocked].sort());
      }),
      { numRuns: 8 },
    );
  });
});
