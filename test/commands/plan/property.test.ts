import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, control, sandbox } from '../../helpers.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { remoteOf } from '../../fixtures/fleet.js';

/**
 * Plan is exact: for random edits of an exported fleet file, the changes plan lists (and what it
 * blocks) are exactly the fields that differ, apply carries them out, and a second plan has
 * nothing left to do (what was blocked stays blocked, nothing else).
 */

const writeFile = useFiles('edp-fleet-property-');

const TEMPLATE = 'Paid Media Performance';
const HOOK = 'https://hooks.example.com/edp';
const NEW_HOOK = 'https://hooks.example.com/new';
const ROLE = 'Media Buyer';
const NEW_ROLE = 'Report Reader';
const EVENTS = ['load_completed', 'recipe_activated', 'recipe_deactivated', 'load_started', 'workspace_created'];
const PERMISSIONS = ['EXTRACT:RUN', 'EXTRACT:VIEW', 'LOAD:RUN', 'RECIPE:VIEW', 'RECIPE:BUILD'];

const base = (sb: Sandbox) => `workspaces: [101]
recipes:
  - template: ${TEMPLATE}
    title: Spend (custom)
    sync_from_date: 2024-01-01
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}, remote:${remoteOf(sb, 101, 'google_ads', 1)}]
webhooks:
  - url: ${HOOK}
    events: [load_completed, recipe_activated]
roles:
  - title: ${ROLE}
    description: Runs paid media extractions
    permissions: [EXTRACT:RUN]
`;

/** One random set of edits a person might make to the exported file. */
const edits = fc.record({
  title: fc.boolean(),
  removeRecipe: fc.boolean(),
  syncFrom: fc.option(fc.constantFrom('2023-06-01', '2025-01-01'), { nil: undefined }),
  addAccount: fc.boolean(),
  dropAccount: fc.boolean(),
  events: fc.option(fc.subarray(EVENTS, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  badEvent: fc.boolean(),
  newWebhook: fc.boolean(),
  removeWebhook: fc.boolean(),
  roleDescription: fc.boolean(),
  rolePermissions: fc.option(fc.subarray(PERMISSIONS, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  newRole: fc.boolean(),
  removeRole: fc.boolean(),
  prune: fc.boolean(),
});
type Edits = typeof edits extends fc.Arbitrary<infer T> ? T : never;

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The edited document, and what plan must say about it: `resource:action:name` and `resource:code:name`. */
function edit(sb: Sandbox, doc: any, e: Edits) {
  const changes = new Set<string>();
  const blocked = new Set<string>();
  const unmanaged = new Set<string>();
  const recipe = doc.recipes.find((r: any) => r.template === TEMPLATE);
  let configure = false;
  if (e.title) {
    recipe.title = 'Spend (renamed)';
    blocked.add(`recipe:title_change_not_supported:${TEMPLATE}`);
  }
  if (e.syncFrom !== undefined && e.syncFrom !== recipe.sync_from_date) {
    recipe.sync_from_date = e.syncFrom;
    configure = true;
  }
  const accounts: string[] = recipe.sources[0].accounts;
  if (e.dropAccount) {
    accounts.pop();
    blocked.add(`recipe:account_removal_not_allowed:${TEMPLATE}`);
  }
  if (e.addAccount) {
    accounts.push(`remote:${remoteOf(sb, 101, 'google_ads', 2)}`);
    configure = true;
  }
  if (e.removeRecipe) {
    // Recipes the file does not name are left alone, even with --prune: nothing to do.
    doc.recipes = doc.recipes.filter((r: any) => r !== recipe);
    for (const b of [...blocked]) if (b.startsWith('recipe:')) blocked.delete(b);
  } else if (configure) {
    changes.add(`recipe:configure:${TEMPLATE}`);
    changes.add(`recipe:build:${TEMPLATE}`);
  }

  const hook = doc.webhooks.find((w: any) => w.url === HOOK);
  if (e.removeWebhook) {
    doc.webhooks = doc.webhooks.filter((w: any) => w !== hook);
    (e.prune ? changes : unmanaged).add(e.prune ? `webhook:delete:${HOOK}` : `webhook:${HOOK}`);
  } else if (e.badEvent) {
    hook.events = [...hook.events, 'recipe_build_failed'];
    blocked.add(`webhook:event_type_unknown:${HOOK}`);
  } else if (e.events !== undefined && !sameSet(e.events, hook.events)) {
    hook.events = e.events;
    changes.add(`webhook:update:${HOOK}`);
  }
  if (e.newWebhook) {
    doc.webhooks.push({ url: NEW_HOOK, events: ['load_completed'] });
    changes.add(`webhook:create:${NEW_HOOK}`);
  }

  const role = doc.roles.find((r: any) => r.title === ROLE);
  if (e.removeRole) {
    doc.roles = doc.roles.filter((r: any) => r !== role);
    (e.prune ? changes : unmanaged).add(e.prune ? `role:delete:${ROLE}` : `role:${ROLE}`);
  } else {
    let changed = false;
    if (e.roleDescription) {
      role.description = 'Runs and reviews paid media extractions';
      changed = true;
    }
    if (e.rolePermissions !== undefined && !sameSet(e.rolePermissions, role.permissions)) {
      role.permissions = e.rolePermissions;
      changed = true;
    }
    if (changed) changes.add(`role:update:${ROLE}`);
  }
  if (e.newRole) {
    doc.roles.push({ title: NEW_ROLE, description: 'Reads reports', permissions: ['RECIPE:VIEW'] });
    changes.add(`role:create:${NEW_ROLE}`);
  }
  return { doc, changes, blocked, unmanaged };
}

/** What a `plan --json` document lists, in the same terms. */
function listed(plan: any) {
  const parts = [...plan.workspaces, plan.agency];
  for (const p of parts) expect(p.error, JSON.stringify(p.error)).toBeNull();
  return {
    changes: new Set<string>(parts.flatMap((p) => p.changes.map((c: any) => `${c.resource}:${c.action}:${c.name}`))),
    blocked: new Set<string>(parts.flatMap((p) => p.blocked.map((b: any) => `${b.resource}:${b.code}:${b.name}`))),
    unmanaged: new Set<string>(parts.flatMap((p) => p.unmanaged.map((u: any) => `${u.resource}:${u.name}`))),
    all: parts.flatMap((p) => p.changes),
  };
}

// The state every run starts from, the base file applied, is made once and kept as a snapshot;
// each run restores it (the state and the clock, as a fresh sandbox with the file applied would
// have them) and edits the export taken then.
let sb: Sandbox;
/** The export of the base state: parsed afresh (ids exact) for each run to edit. */
let exported: { json(): any };
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  const applied = await cli(sb, ['apply', '-f', writeFile('base.yaml', base(sb)), '--yes', ...FAST]);
  expect(applied.code, applied.stderr).toBe(0);
  const r = await cli(sb, ['export', '-w', '101', '--json']);
  expect(r.code, r.stderr).toBe(0);
  exported = r;
  await control(sb, 'PUT', '/snapshots/base');
});
afterAll(() => sb?.close());

describe('plan is exact (property)', () => {
  it('for random edits of an exported file: plan lists exactly what differs, apply converges, a second plan is empty', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(edits, async (e) => {
        await control(sb, 'POST', '/snapshots/base/restore');
        const want = edit(sb, exported.json(), e);
        const file = writeFile(`edited-${run++}.json`, JSON.stringify(want.doc, null, 2));
        const prune = e.prune ? ['--prune'] : [];

        const first = await cli(sb, ['plan', '-f', file, '--json', ...prune]);
        const got = listed(first.json());
        expect([...got.changes].sort()).toEqual([...want.changes].sort());
        expect([...got.blocked].sort()).toEqual([...want.blocked].sort());
        for (const u of want.unmanaged) expect(got.unmanaged).toContain(u);
        // The differing fields, in the changes' details.
        const configure = got.all.find((c: any) => c.resource === 'recipe' && c.action === 'configure');
        if (configure) {
          expect(configure.detail.sync_from_date).toBe(e.syncFrom !== undefined ? e.syncFrom : undefined);
          expect(configure.detail.accounts ?? []).toEqual(
            e.addAccount
              ? [expect.objectContaining({ add: [expect.stringContaining(remoteOf(sb, 101, 'google_ads', 2))] })]
              : [],
          );
        }
        const update = got.all.find((c: any) => c.resource === 'webhook' && c.action === 'update');
        if (update) expect([...update.detail.events].sort()).toEqual([...e.events!].sort());

        const apply = await cli(sb, ['apply', '-f', file, '--yes', '--json', ...prune, ...FAST]);
        // What cannot be done is the exit code: 6 for what the contract forbids (a rename, a
        // removal), 2 for a name the service does not list; 1 when the kinds differ.
        const kinds = new Set([...want.blocked].map((b) => (b.includes(':event_type_unknown:') ? 2 : 6)));
        expect(apply.code, apply.stderr).toBe(kinds.size === 0 ? 0 : kinds.size === 1 ? [...kinds][0] : 1);

        const second = await cli(sb, ['plan', '-f', file, '--json', ...prune]);
        const after = listed(second.json());
        expect([...after.changes]).toEqual([]);
        expect([...after.blocked].sort()).toEqual([...want.blocked].sort());
      }),
      { numRuns: 15 },
    );
  });
});
