import { describe, expect } from 'vitest';
import { agencyWriteCheck, writeCheck } from './checks.js';
import {
  allItems,
  call,
  expectStatus,
  idText,
  leftBehind,
  readWorkspace,
  scratchWorkspace,
  tokenFor,
  type Answer,
} from './target.js';

/** A recipe the agency does not have, and a workspace it does not have. */
const NO_SUCH_ID = 2147483646;

/** The dashboards a workspace lists, all pages (read with the agency's credentials). */
async function dashboardCount(workspace: number): Promise<number> {
  const res = await call('GET', `/api/v3/workspaces/${workspace}/dashboards`, { auth: 'basic' });
  expectStatus(res, 200);
  return res.body.count;
}

/** Enabling a recipe answers 403 while the agency's recipe pipeline is off: nothing else is observable then. */
const pipelineOff = (res: Answer) => res.status === 403;

/**
 * Contract: Tokens, workspaces, agency recipes table (POST and PUT workspaces, POST
 * workspaces/{id}/recipes, dashboards), Workspace, Versioning 7. Renaming the scratch workspace
 * is undone; making a workspace and enabling recipes cannot be (the contract has neither a
 * workspace delete nor a recipe disable), so those run only where agency writes are allowed.
 */
describe('workspaces', () => {
  writeCheck(
    'PUT renames a workspace: 200 with the new title, which a read then shows; renamed back (workspaces.rename)',
    async () => {
      const path = `/api/v3/workspaces/${scratchWorkspace}`;
      const before = await call('GET', path, { auth: 'basic' });
      expectStatus(before, 200);
      const title: string = before.body.title;
      const renamed = `${title.slice(0, 200)} (parity ${Date.now()})`;
      try {
        const res = await call('PUT', path, { auth: 'basic', json: { title: renamed } });
        expectStatus(res, 200);
        expect(idText(res.body.id)).toBe(String(scratchWorkspace));
        expect(res.body.title).toBe(renamed);
        expect((await call('GET', path, { auth: 'basic' })).body.title).toBe(renamed);
      } finally {
        expectStatus(await call('PUT', path, { auth: 'basic', json: { title } }), 200);
      }
      expect((await call('GET', path, { auth: 'basic' })).body.title).toBe(title);
    },
  );

  writeCheck(
    'PUT without a title answers 400 and the title stays (workspaces.rename; Status meaning 400)',
    async () => {
      const path = `/api/v3/workspaces/${scratchWorkspace}`;
      const title: string = (await call('GET', path, { auth: 'basic' })).body.title;
      try {
        expectStatus(await call('PUT', path, { auth: 'basic', json: {} }), 400);
        expect((await call('GET', path, { auth: 'basic' })).body.title).toBe(title);
      } finally {
        // Were the title taken after all, it is put back.
        await call('PUT', path, { auth: 'basic', json: { title } });
      }
    },
  );

  writeCheck(
    'enabling a recipe the agency does not have answers 404 (workspaces.enableRecipe; Status meaning)',
    async (ctx) => {
      const res = await call('POST', `/api/v3/workspaces/${scratchWorkspace}/recipes`, {
        auth: 'basic',
        json: { recipe_id: NO_SUCH_ID },
      });
      if (pipelineOff(res)) return ctx.skip('the recipe pipeline is off for the agency (403)');
      expectStatus(res, 404);
    },
  );

  writeCheck(
    'enabling a recipe in a workspace the agency does not have answers 404 (workspaces.enableRecipe; Status meaning)',
    async (ctx) => {
      const recipes = await allItems('/api/v3/recipes/', 'basic');
      const recipe = recipes.length > 0 ? Number(idText(recipes[0].id)) : NO_SUCH_ID;
      const res = await call('POST', `/api/v3/workspaces/${NO_SUCH_ID}/recipes`, {
        auth: 'basic',
        json: { recipe_id: recipe },
      });
      if (pipelineOff(res)) return ctx.skip('the recipe pipeline is off for the agency (403)');
      expectStatus(res, 404);
    },
  );

  describe('made by the suite', () => {
    let made: number | undefined;

    agencyWriteCheck(
      'POST creates a workspace: 201 with an integer id and the title sent, read back by id, in the list, and a token works for it (workspaces.create; token.issue)',
      async () => {
        const title = `parity ${new Date().toISOString()}`;
        const res = await call('POST', '/api/v3/workspaces', { auth: 'basic', json: { title } });
        if (res.body?.id !== undefined) {
          made = Number(idText(res.body.id));
          leftBehind('agency', `workspace ${made} "${title}"`, 'the contract has no delete for workspaces');
        }
        expectStatus(res, 201);
        expect(idText(res.body.id)).toMatch(/^\d+$/);
        expect(res.body.title).toBe(title);
        const read = await call('GET', `/api/v3/workspaces/${made}`, { auth: 'basic' });
        expectStatus(read, 200);
        expect(read.body.title).toBe(title);
        const listed = await allItems('/api/v3/workspaces', 'basic');
        expect(listed.map((w) => idText(w.id))).toContain(String(made));
        expect(await tokenFor(made!)).toBeTruthy();
      },
    );

    agencyWriteCheck(
      'a new workspace lists no dashboard: it has no enabled recipe (workspaces.dashboards)',
      async (ctx) => {
        if (made === undefined) return ctx.skip('the create check made no workspace');
        expect(await dashboardCount(made)).toBe(0);
      },
    );

    agencyWriteCheck(
      'enabling every agency recipe answers 204 each, and the workspace then lists at least as many dashboards as another workspace (workspaces.enableRecipe; workspaces.dashboards; Versioning 7)',
      async (ctx) => {
        if (made === undefined) return ctx.skip('the create check made no workspace');
        const recipes = await allItems('/api/v3/recipes/', 'basic');
        if (recipes.length === 0) return ctx.skip('the agency has no recipe');
        const enabled: string[] = [];
        try {
          for (const r of recipes) {
            const id = idText(r.id);
            const res = await call('POST', `/api/v3/workspaces/${made}/recipes`, {
              auth: 'basic',
              json: { recipe_id: Number(id) },
            });
            if (pipelineOff(res)) return ctx.skip('the recipe pipeline is off for the agency (403)');
            if (res.status < 300) enabled.push(id);
            expectStatus(res, 204);
            expect(res.text).toBe('');
          }
        } finally {
          if (enabled.length > 0)
            leftBehind(
              'agency',
              `recipes ${enabled.join(', ')} enabled in workspace ${made}`,
              'the contract has no way to disable a recipe',
            );
        }
        // Every dashboard another workspace lists belongs to a recipe now enabled here too.
        expect(await dashboardCount(made)).toBeGreaterThanOrEqual(await dashboardCount(await readWorkspace()));
      },
    );
  });
});
