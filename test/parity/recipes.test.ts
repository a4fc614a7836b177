import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { unobservable, writeCheck } from './checks.js';
import {
  SYSTEM_FIELDS,
  allItems,
  call,
  canWrite,
  expectCodeEnvelope,
  expectDetailEnvelope,
  expectStatus,
  idText,
  otherWorkspace,
  parityWait,
  readWorkspace,
  tokenFor,
  type Answer,
} from './target.js';
import { DATASOURCE, RECIPE_TEMPLATE } from './vendor-names.js';

const V31_STATES = ['extracting_data', 'building_dependencies', 'ready_to_work', 'failed'];
const V3_STATE: Record<string, string> = {
  extracting_data: 'Extracting Data',
  building_dependencies: 'Building Dependencies',
  ready_to_work: 'Ready to work',
  failed: 'Failed',
};
const TERMINAL = ['ready_to_work', 'failed'];

/** Everything a configuration needs, found through the API in the scratch workspace. */
interface Setup {
  datasource: string;
  connectionId: number;
  /** two active accounts of the connection: internal id and remote account_id */
  accounts: Array<{ id: number; remote: string }>;
}

/**
 * Contract: Automated recipe template, Automated recipe, Recipe configuration body, Automated
 * recipes v3.1 (table and rules 1-7), Automated recipes v3 (the difference table), States,
 * Errors (codes of specific operations), Versioning 1-3.
 */
describe('recipes', () => {
  let workspace: number;
  let token: string;
  let templates: any[] = [];
  const auth = () => ({ bearer: token });
  const opt = () => ({ auth: auth() });

  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
    templates = await allItems('/api/v3.1/automated-recipe-templates/?page_size=100', auth());
  });

  test('v3.1 template list items carry origin, categories and build_mode (recipeTemplates.list)', async (ctx) => {
    if (templates.length === 0) return ctx.skip('the agency has no recipe template');
    for (const t of templates) {
      expect(typeof t.origin).toBe('string');
      expect(Array.isArray(t.categories)).toBe(true);
      expect(typeof t.build_mode).toBe('string');
    }
  });

  test('v3.1 template detail gives output_columns as a list, empty rather than null (Versioning 3)', async (ctx) => {
    if (templates.length === 0) return ctx.skip('the agency has no recipe template');
    for (const t of templates.slice(0, 10)) {
      const res = await call('GET', `/api/v3.1/automated-recipe-templates/${idText(t.id)}/`, opt());
      expectStatus(res, 200);
      expect(Array.isArray(res.body.output_columns)).toBe(true);
    }
  });

  test('v3 template detail gives level, children, dependencies_count and output_columns, list or null (v3.recipeTemplates.get)', async (ctx) => {
    if (templates.length === 0) return ctx.skip('the agency has no recipe template');
    for (const t of templates.slice(0, 10)) {
      const res = await call('GET', `/api/v3/automated-recipe-templates/${idText(t.id)}/`, opt());
      expectStatus(res, 200);
      expect(res.body).toHaveProperty('level');
      expect(Array.isArray(res.body.children)).toBe(true);
      expect(typeof res.body.dependencies_count).toBe('number');
      expect(res.body.output_columns === null || Array.isArray(res.body.output_columns)).toBe(true);
    }
  });

  test('v3 template list names the same templates as v3.1 (Versioning 1: the two versions serve the same recipes)', async () => {
    const v3 = await allItems('/api/v3/automated-recipe-templates/?page_size=100', auth());
    expect(v3.map((t) => idText(t.id)).sort()).toEqual(templates.map((t) => idText(t.id)).sort());
  });

  test('template output_columns list provider fields only, no system fields, in v3.1 and v3 (What the service does)', async (ctx) => {
    if (templates.length === 0) return ctx.skip('the agency has no recipe template');
    const offenders: string[] = [];
    for (const t of templates) {
      for (const version of ['v3.1', 'v3']) {
        const res = await call('GET', `/api/${version}/automated-recipe-templates/${idText(t.id)}/`, opt());
        for (const column of res.body?.output_columns ?? []) {
          const name = typeof column === 'string' ? column : column.name;
          if (SYSTEM_FIELDS.includes(name)) offenders.push(`${version} template ${idText(t.id)}: ${name}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  test('v3 unknown state filter answers 200 with an empty page (v3.recipes.list; States and transitions)', async () => {
    const res = await call('GET', '/api/v3/automated-recipes/?state=parity_unknown_state', opt());
    expectStatus(res, 200);
    expect(res.body.count).toBe(0);
    expect(res.body.results).toEqual([]);
  });

  test('v3 state filter is case-sensitive: a lower-case v3.1 value matches nothing in v3 (v3.recipes.list; States and transitions)', async () => {
    const res = await call('GET', '/api/v3/automated-recipes/?state=ready_to_work', opt());
    expectStatus(res, 200);
    expect(res.body.count).toBe(0);
  });

  test('recipes in lists: v3.1 states are lower-case, v3 states are display strings, error present iff failed (recipes.list; v3.recipes.list; States and transitions)', async () => {
    const v31 = await allItems('/api/v3.1/automated-recipes/?page_size=100', auth());
    for (const r of v31) {
      if (r.state !== null) expect(V31_STATES).toContain(r.state);
      expect(r).toHaveProperty('datatable_id');
      expect(r.error !== null && r.error !== undefined).toBe(r.state === 'failed');
    }
    const v3 = await allItems('/api/v3/automated-recipes/?page_size=100', auth());
    for (const r of v3) if (r.state !== null) expect(Object.values(V3_STATE)).toContain(r.state);
    expect(v3.map((r) => idText(r.recipe_id)).sort()).toEqual(v31.map((r) => idText(r.recipe_id)).sort());
  });

  unobservable(
    'the extraction check answers 501 destination_check_unsupported when the destination cannot report tables (Errors, Retries 5)',
    'needs a workspace whose destination cannot report table existence',
  );
  unobservable(
    'a 503 answer carries Retry-After: 30 (Status meaning, Limits)',
    'needs a dependency to fail; the v3 extraction check asserts it whenever it answers 503',
  );

  describe('writes', () => {
    let setup: Setup | undefined;
    const created = new Set<string>();
    let recipe: any; // made through v3.1
    let v3Recipe: { id: string; templateId: string } | undefined; // made through v3
    let templateId: string | undefined;

    const block = (accounts: Array<{ id: number }>) => ({
      connection_id: setup!.connectionId,
      connection_data_source: setup!.datasource,
      accounts: accounts.map((a) => ({ id: a.id })),
    });
    const put = (id: string, body: unknown): Promise<Answer> =>
      call('PUT', `/api/v3.1/automated-recipes/${id}/`, { auth: auth(), json: body });
    const rid = () => idText(recipe.recipe_id);
    /** A check on the recipe the v3.1 create check made: skipped when there is none (that check reports why). */
    const onRecipe = (name: string, fn: (ctx: TestContext) => Promise<void>) =>
      writeCheck(name, async (ctx) => {
        if (!recipe) return ctx.skip('the v3.1 create check made no recipe');
        await fn(ctx);
      });
    const onV3Recipe = (name: string, fn: (ctx: TestContext) => Promise<void>) =>
      writeCheck(name, async (ctx) => {
        if (!v3Recipe) return ctx.skip('the v3 create check made no recipe');
        await fn(ctx);
      });

    /** Polls the v3.1 recipe until a terminal state, or gives up after `seconds`. */
    async function settle(id: string, seconds = parityWait(25)): Promise<any> {
      const end = Date.now() + seconds * 1000;
      for (;;) {
        const res = await call('GET', `/api/v3.1/automated-recipes/${id}/`, opt());
        if (res.status !== 200 || TERMINAL.includes(res.body.state) || res.body.state === null || Date.now() > end)
          return res.body;
        await new Promise((r) => setTimeout(r, 400));
      }
    }

    /** Creates a recipe from the first template without one in the workspace, through `version`. */
    async function createFromFreeTemplate(
      version: 'v3' | 'v3.1',
      skip: Set<string>,
    ): Promise<{ res: Answer; templateId: string } | undefined> {
      for (const t of templates) {
        const id = idText(t.id);
        if (skip.has(id)) continue;
        const existing = await call('GET', `/api/v3.1/automated-recipes/?template_id=${id}`, opt());
        if (existing.status !== 200 || existing.body.count > 0) continue;
        const sources = t[RECIPE_TEMPLATE.dataSources];
        if (setup && Array.isArray(sources) && !sources.includes(setup.datasource)) continue;
        const res = await call('POST', `/api/${version}/automated-recipes/`, {
          auth: auth(),
          json: { template_id: Number(id), title: `Parity check ${Date.now()}` },
        });
        if (res.status === 201) {
          created.add(idText(res.body.recipe_id));
          return { res, templateId: id };
        }
        skip.add(id);
      }
      return undefined;
    }

    beforeAll(async () => {
      if (!canWrite) return;
      for (const ds of await allItems('/api/v3/datasources', auth())) {
        const name: string = ds[DATASOURCE.name];
        for (const c of await allItems(`/api/v3/datasources/${encodeURIComponent(name)}/connections`, auth())) {
          const active = (await allItems(`/api/v3/connections/${idText(c.id)}/accounts`, auth())).filter(
            (a) => a.is_active,
          );
          if (active.length >= 2) {
            setup = {
              datasource: name,
              connectionId: Number(idText(c.id)),
              accounts: active.slice(0, 2).map((a) => ({ id: Number(idText(a.id)), remote: String(a.account_id) })),
            };
            return;
          }
        }
      }
    });

    // Delete what the checks created, even after a failure (a running build does not prevent it).
    afterAll(async () => {
      for (const id of created) await call('DELETE', `/api/v3.1/automated-recipes/${id}/`, { auth: auth() });
    });

    writeCheck(
      'v3.1 create answers 201 with the full recipe, recipe_id a large integer kept exact (recipes.create; v3-vs-v3.1 table)',
      async (ctx) => {
        if (!setup) return ctx.skip('no connection with two active accounts in the scratch workspace');
        const made = await createFromFreeTemplate('v3.1', new Set());
        if (!made) return ctx.skip('no deployable template without a recipe in the scratch workspace');
        recipe = made.res.body;
        templateId = made.templateId;
        for (const key of [
          'recipe_id',
          'datatable_id',
          'title',
          'state',
          'error',
          'last_build_at',
          'degraded',
          'not_delivered_reasons',
          'sources',
          'data_sources',
          'connections',
          'sync_from_date',
        ]) {
          expect(recipe, `recipe field ${key}`).toHaveProperty(key);
        }
        expect(idText(recipe.recipe_id)).toMatch(/^\d+$/);
        expect(recipe.error).toBeNull();
        expect(recipe.last_build_at).toBeNull();
        expect(recipe.connections).toEqual([]);
      },
    );

    onRecipe('v3.1 detail answers the same recipe_id digit for digit (recipes.get)', async () => {
      const res = await call('GET', `/api/v3.1/automated-recipes/${rid()}/`, opt());
      expectStatus(res, 200);
      expect(idText(res.body.recipe_id)).toBe(rid());
      expect(idText(res.body.datatable_id)).toBe(idText(recipe.datatable_id));
    });

    onRecipe(
      'v3.1 list items include datatable_id; v3 and v3.1 lists name the recipe exactly, as number or string (recipes.list; v3.recipes.list)',
      async () => {
        const v31 = await call('GET', `/api/v3.1/automated-recipes/?template_id=${templateId}`, opt());
        expectStatus(v31, 200);
        const item = v31.body.results.find((r: { recipe_id: unknown }) => idText(r.recipe_id) === rid());
        expect(item).toBeDefined();
        expect(idText(item.datatable_id)).toBe(idText(recipe.datatable_id));
        for (const key of ['error', 'degraded', 'not_delivered_reasons']) expect(item).toHaveProperty(key);
        const v3 = await allItems('/api/v3/automated-recipes/?page_size=100', auth());
        expect(v3.map((r) => idText(r.recipe_id))).toContain(rid());
      },
    );

    onRecipe(
      'a second v3.1 create from the same template answers 409 recipe_already_exists with existing_recipe_ids (Rules 3)',
      async () => {
        const res = await call('POST', '/api/v3.1/automated-recipes/', {
          auth: auth(),
          json: { template_id: Number(templateId), title: 'Parity check duplicate' },
        });
        if (res.status === 201) created.add(idText(res.body.recipe_id));
        expectCodeEnvelope(res, 409, 'recipe_already_exists');
        expect(res.body.details.existing_recipe_ids.map(idText)).toContain(rid());
      },
    );

    onRecipe('build and resetup of a never configured recipe answer 409 recipe_not_configured (Rules 1)', async () => {
      expectCodeEnvelope(
        await call('POST', `/api/v3.1/automated-recipes/${rid()}/build/`, opt()),
        409,
        'recipe_not_configured',
      );
      expectCodeEnvelope(
        await call('POST', `/api/v3.1/automated-recipes/${rid()}/resetup/`, opt()),
        409,
        'recipe_not_configured',
      );
    });

    onRecipe(
      'v3 build of a never configured recipe answers 400 {detail}, not 409 (Versioning 3: 409 for contradictions is v3.1)',
      async () => {
        expectDetailEnvelope(await call('POST', `/api/v3/automated-recipes/${rid()}/build/`, opt()), 400);
      },
    );

    onRecipe(
      'empty accounts answer 400 validation_error at connections[0].accounts (recipes.configure; Validation errors)',
      async () => {
        const res = await put(rid(), { data_sources: [setup!.datasource], connections: [block([])] });
        expectCodeEnvelope(res, 400, 'validation_error');
        expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain('connections[0].accounts');
      },
    );

    onRecipe(
      'v3.1 configure answers 200 with the recipe as stored, accounts as {id} only (recipes.configure; v3-vs-v3.1 table)',
      async () => {
        const res = await put(rid(), {
          data_sources: [setup!.datasource],
          connections: [block([setup!.accounts[0]!])],
          sync_from_date: '2024-01-01',
        });
        expectStatus(res, 200);
        expect(idText(res.body.recipe_id)).toBe(rid());
        expect(res.body.data_sources).toEqual([setup!.datasource]);
        expect(res.body.sync_from_date).toBe('2024-01-01');
        expect(res.body.connections).toHaveLength(1);
        expect(Number(idText(res.body.connections[0].connection_id))).toBe(setup!.connectionId);
        expect(res.body.connections[0].accounts).toEqual([{ id: setup!.accounts[0]!.id }]);
      },
    );

    onRecipe('configure with the stored block plus a new account appends it (Rules 2)', async () => {
      const res = await put(rid(), { data_sources: [setup!.datasource], connections: [block(setup!.accounts)] });
      expectStatus(res, 200);
      expect(res.body.connections[0].accounts.map((a: { id: unknown }) => Number(idText(a.id)))).toEqual(
        setup!.accounts.map((a) => a.id),
      );
    });

    onRecipe('removing an account answers 409 account_removal_not_allowed and saves nothing (Rules 2)', async () => {
      const res = await put(rid(), { data_sources: [setup!.datasource], connections: [block([setup!.accounts[1]!])] });
      expectCodeEnvelope(res, 409, 'account_removal_not_allowed');
      expect(res.body.details.connections[0].accounts.map((a: { id: unknown }) => Number(idText(a.id)))).toEqual([
        setup!.accounts[0]!.id,
      ]);
      const after = await call('GET', `/api/v3.1/automated-recipes/${rid()}/`, opt());
      expect(after.body.connections[0].accounts).toHaveLength(2);
    });

    onRecipe('removing every data source answers 409 data_source_removal_not_allowed (Rules 2)', async () => {
      const res = await put(rid(), { data_sources: [], connections: [] });
      expectCodeEnvelope(res, 409, 'data_source_removal_not_allowed');
      expect(res.body.details.data_sources).toEqual([setup!.datasource]);
    });

    onRecipe(
      'a data source the template does not allow answers 400 data_source_not_allowed (Codes of specific operations)',
      async () => {
        const res = await put(rid(), {
          data_sources: [setup!.datasource, 'parity_unknown_source'],
          connections: [block(setup!.accounts)],
        });
        expectCodeEnvelope(res, 400, 'data_source_not_allowed');
        expect(res.body.details.data_sources).toEqual(['parity_unknown_source']);
      },
    );

    onRecipe(
      'a connection whose data source is not in data_sources answers 400 connection_data_source_not_selected (Codes of specific operations)',
      async () => {
        const stray = { ...block(setup!.accounts), connection_data_source: 'parity_unlisted_source' };
        const res = await put(rid(), {
          data_sources: [setup!.datasource],
          connections: [block(setup!.accounts), stray],
        });
        expectCodeEnvelope(res, 400, 'connection_data_source_not_selected');
        expect(res.body.details.connections).toEqual([
          expect.objectContaining({ index: 1, connection_data_source: 'parity_unlisted_source' }),
        ]);
      },
    );

    onRecipe(
      'the same connection listed twice answers 400 duplicate_connection (Codes of specific operations)',
      async () => {
        const res = await put(rid(), {
          data_sources: [setup!.datasource],
          connections: [block(setup!.accounts), block(setup!.accounts)],
        });
        expectCodeEnvelope(res, 400, 'duplicate_connection');
      },
    );

    onRecipe(
      'an unknown account answers 400 account_unavailable naming it (Codes of specific operations, v3.1 accounts rule 6)',
      async () => {
        const res = await put(rid(), {
          data_sources: [setup!.datasource],
          connections: [block([...setup!.accounts, { id: 2147483646 }])],
        });
        expectCodeEnvelope(res, 400, 'account_unavailable');
        expect(res.body.details.connections[0].accounts.map((a: { id: unknown }) => Number(idText(a.id)))).toEqual([
          2147483646,
        ]);
      },
    );

    onRecipe(
      'v3 reads the recipe made in v3.1, accounts as {id, account_id} with the remote id (Versioning 1, v3-vs-v3.1 table)',
      async () => {
        const res = await call('GET', `/api/v3/automated-recipes/${rid()}/`, opt());
        expectStatus(res, 200);
        expect(idText(res.body.recipe_id)).toBe(rid());
        const accounts = res.body.connections[0].accounts as Array<{ id: unknown; account_id: unknown }>;
        expect(accounts.map((a) => [Number(idText(a.id)), String(a.account_id)])).toEqual(
          setup!.accounts.map((a) => [a.id, a.remote]),
        );
      },
    );

    onRecipe(
      'a recipe of another workspace answers 404 not_found in v3.1 and 403 in v3 (Rules 7, v3-vs-v3.1 table)',
      async (ctx) => {
        const other = await otherWorkspace(workspace);
        if (other === undefined) return ctx.skip('the agency has one workspace only');
        const otherToken = await tokenFor(other);
        expectCodeEnvelope(
          await call('GET', `/api/v3.1/automated-recipes/${rid()}/`, { auth: { bearer: otherToken } }),
          404,
          'not_found',
        );
        expectStatus(await call('GET', `/api/v3/automated-recipes/${rid()}/`, { auth: { bearer: otherToken } }), 403);
      },
    );

    onRecipe(
      'v3.1 build answers 202 with the recipe: extracting_data, last_build_at set (recipes.build; States and transitions; Rules 5)',
      async () => {
        const res = await call('POST', `/api/v3.1/automated-recipes/${rid()}/build/`, opt());
        expectStatus(res, 202);
        expect(idText(res.body.recipe_id)).toBe(rid());
        expect(res.body.state).toBe('extracting_data');
        expect(res.body.last_build_at).not.toBeNull();
        expect(res.body.error).toBeNull();
      },
    );

    onRecipe('a build while one runs answers 409 build_already_running (Codes of specific operations)', async (ctx) => {
      const now = await call('GET', `/api/v3.1/automated-recipes/${rid()}/`, opt());
      if (TERMINAL.includes(now.body.state)) return ctx.skip('the build ended before the second request');
      const res = await call('POST', `/api/v3.1/automated-recipes/${rid()}/build/`, opt());
      if (res.status === 202) return ctx.skip('the build ended before the second request');
      expectCodeEnvelope(res, 409, 'build_already_running');
    });

    onRecipe(
      'the same recipe reads as the lower-case state in v3.1 and its display string in v3 (recipes.get; v3.recipes.get; States and transitions)',
      async (ctx) => {
        for (let attempt = 0; attempt < 5; attempt++) {
          const before = (await call('GET', `/api/v3.1/automated-recipes/${rid()}/`, opt())).body.state;
          const v3 = (await call('GET', `/api/v3/automated-recipes/${rid()}/`, opt())).body.state;
          const after = (await call('GET', `/api/v3.1/automated-recipes/${rid()}/`, opt())).body.state;
          if (before !== after) continue;
          expect(V31_STATES).toContain(before);
          expect(v3).toBe(V3_STATE[before]);
          return;
        }
        ctx.skip('the state kept changing between reads');
      },
    );

    onRecipe(
      'the v3.1 extraction check answers {all_tables_exist, tables} (recipes.extractions; Rules 6)',
      async () => {
        const res = await call('GET', `/api/v3.1/automated-recipes/${rid()}/extractions/`, opt());
        expectStatus(res, 200);
        expect(typeof res.body.all_tables_exist).toBe('boolean');
        expect(Array.isArray(res.body.tables)).toBe(true);
      },
    );

    onRecipe(
      'the v3 extraction check answers {ready, sources[]} with one entry per table, or 503 with Retry-After: 30 (v3.recipes.extractions; v3-vs-v3.1 table; Status meaning)',
      async () => {
        const res = await call('GET', `/api/v3/automated-recipes/${rid()}/extractions/`, opt());
        if (res.status === 503) {
          expect(res.header('retry-after')).toBe('30');
          return;
        }
        expectStatus(res, 200);
        expect(typeof res.body.ready).toBe('boolean');
        for (const s of res.body.sources) {
          for (const key of ['data_source', 'table', 'table_exists', 'extraction_ids']) expect(s).toHaveProperty(key);
        }
        expect(res.body.ready).toBe(res.body.sources.every((s: { table_exists: boolean }) => s.table_exists));
      },
    );

    onRecipe(
      'a build ends ready_to_work or failed; error is present iff failed, degraded is a boolean (recipes.get; States and transitions)',
      async (ctx) => {
        const end = await settle(rid());
        if (!TERMINAL.includes(end.state)) return ctx.skip(`the build had not ended after 25 s (state ${end.state})`);
        expect(typeof end.degraded).toBe('boolean');
        expect(Array.isArray(end.not_delivered_reasons)).toBe(true);
        expect(Array.isArray(end.sources)).toBe(true);
        if (end.state === 'failed') {
          for (const key of ['code', 'message', 'stage', 'data_source', 'occurred_at', 'details'])
            expect(end.error).toHaveProperty(key);
        } else {
          expect(end.error).toBeNull();
        }
        for (const s of end.sources) {
          expect(s.error !== null && s.error !== undefined).toBe(s.status === 'failed');
          expect(s.not_delivered.length).toBeLessThanOrEqual(100);
        }
      },
    );

    onRecipe('v3.1 resetup answers 202 with the recipe (recipes.resetup; v3-vs-v3.1 table)', async (ctx) => {
      const end = await settle(rid());
      if (!TERMINAL.includes(end.state)) return ctx.skip('the previous build had not ended');
      const res = await call('POST', `/api/v3.1/automated-recipes/${rid()}/resetup/`, opt());
      expectStatus(res, 202);
      expect(idText(res.body.recipe_id)).toBe(rid());
    });

    onRecipe('v3.1 delete answers 204, and a repeated delete 404 not_found (Rules 4, Retries 3)', async () => {
      const res = await call('DELETE', `/api/v3.1/automated-recipes/${rid()}/`, opt());
      expectStatus(res, 204);
      created.delete(rid());
      expectCodeEnvelope(await call('DELETE', `/api/v3.1/automated-recipes/${rid()}/`, opt()), 404, 'not_found');
      expectCodeEnvelope(await call('GET', `/api/v3.1/automated-recipes/${rid()}/`, opt()), 404, 'not_found');
    });

    // ---------------------------------------------------------------- v3 operations

    writeCheck(
      'v3 create answers 201 with recipe_id and datatable_id only (v3.recipes.create; v3-vs-v3.1 table)',
      async (ctx) => {
        if (!setup) return ctx.skip('no connection with two active accounts in the scratch workspace');
        const made = await createFromFreeTemplate('v3', new Set(templateId ? [templateId] : []));
        if (!made) return ctx.skip('no second deployable template without a recipe in the scratch workspace');
        expect(Object.keys(made.res.body).sort()).toEqual(['datatable_id', 'recipe_id']);
        v3Recipe = { id: idText(made.res.body.recipe_id), templateId: made.templateId };
        expect(v3Recipe.id).toMatch(/^\d+$/);
      },
    );

    const v3id = () => v3Recipe!.id;

    onV3Recipe(
      'a second v3 create answers 400 with detail and existing_recipe_ids (v3.recipes.create; v3-vs-v3.1 table)',
      async () => {
        const res = await call('POST', '/api/v3/automated-recipes/', {
          auth: auth(),
          json: { template_id: Number(v3Recipe?.templateId), title: 'Parity check duplicate' },
        });
        if (res.status === 201) created.add(idText(res.body.recipe_id));
        expectDetailEnvelope(res, 400);
        expect(res.body.existing_recipe_ids.map(idText)).toContain(v3id());
      },
    );

    onV3Recipe(
      'v3 configure with a bare account value answers 400 (v3.recipes.configure; v3-vs-v3.1 table)',
      async () => {
        const res = await call('PUT', `/api/v3/automated-recipes/${v3id()}/`, {
          auth: auth(),
          json: {
            data_sources: [setup!.datasource],
            connections: [
              {
                connection_id: setup!.connectionId,
                connection_data_source: setup!.datasource,
                accounts: [String(setup!.accounts[0]!.id)],
              },
            ],
          },
        });
        expectDetailEnvelope(res, 400);
      },
    );

    onV3Recipe(
      'v3 configure with {id, account_id} accounts answers 200 with an empty body (v3.recipes.configure; v3-vs-v3.1 table)',
      async () => {
        const res = await call('PUT', `/api/v3/automated-recipes/${v3id()}/`, {
          auth: auth(),
          json: {
            data_sources: [setup!.datasource],
            connections: [
              {
                connection_id: setup!.connectionId,
                connection_data_source: setup!.datasource,
                accounts: setup!.accounts.map((a) => ({ id: a.id, account_id: a.remote })),
              },
            ],
          },
        });
        expectStatus(res, 200);
        expect(res.text.trim()).toBe('');
        const v31 = await call('GET', `/api/v3.1/automated-recipes/${v3id()}/`, opt());
        expect(v31.body.connections[0].accounts).toEqual(setup!.accounts.map((a) => ({ id: a.id })));
      },
    );

    onV3Recipe(
      'v3 removing an account is refused with the connections named as a list of strings (v3.recipes.configure; Rules 2)',
      async () => {
        const res = await call('PUT', `/api/v3/automated-recipes/${v3id()}/`, {
          auth: auth(),
          json: {
            data_sources: [setup!.datasource],
            connections: [
              {
                connection_id: setup!.connectionId,
                connection_data_source: setup!.datasource,
                accounts: [{ id: setup!.accounts[1]!.id, account_id: setup!.accounts[1]!.remote }],
              },
            ],
          },
        });
        expect(res.status, res.text).toBeGreaterThanOrEqual(400);
        expect(res.status, res.text).toBeLessThan(500);
        expect(Array.isArray(res.body.connections)).toBe(true);
        for (const c of res.body.connections) expect(typeof c).toBe('string');
      },
    );

    onV3Recipe('v3 build answers 200 {status, message} (v3.recipes.build; v3-vs-v3.1 table)', async () => {
      const res = await call('POST', `/api/v3/automated-recipes/${v3id()}/build/`, opt());
      expectStatus(res, 200);
      expect(res.body).toHaveProperty('status');
      expect(res.body).toHaveProperty('message');
    });

    onV3Recipe('v3 resetup answers 200 {status, recipe_id} (v3.recipes.resetup; v3-vs-v3.1 table)', async (ctx) => {
      const end = await settle(v3id());
      if (!TERMINAL.includes(end.state)) return ctx.skip('the build had not ended after 25 s');
      const res = await call('POST', `/api/v3/automated-recipes/${v3id()}/resetup/`, opt());
      expectStatus(res, 200);
      expect(res.body).toHaveProperty('status');
      expect(idText(res.body.recipe_id)).toBe(v3id());
    });

    onV3Recipe('v3 delete answers 204 (v3.recipes.delete; v3-vs-v3.1 table)', async () => {
      expectStatus(await call('DELETE', `/api/v3/automated-recipes/${v3id()}/`, opt()), 204);
      created.delete(v3id());
      expectCodeEnvelope(await call('GET', `/api/v3.1/automated-recipes/${v3id()}/`, opt()), 404, 'not_found');
    });
  });
});
