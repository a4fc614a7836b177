import { beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { writeCheck } from './checks.js';
import {
  allItems,
  call,
  expectDetailEnvelope,
  expectStatus,
  idText,
  leftBehind,
  parityWait,
  readWorkspace,
  tokenFor,
  type Answer,
} from './target.js';
import { CUSTOM_SETTING_OPTIONS, DATASOURCE, EXTRACT, EXTRACT_TEMPLATE, PREVIEW } from './vendor-names.js';

const NO_SUCH_ID = 2147483646;
const NO_DELETE = 'the contract has no delete for extracts';

/** What the checks need, found through the API: a connection with active accounts, and templates of its data source. */
interface Found {
  datasource: string;
  connection: string;
  /** active accounts of the connection: internal id and remote account_id */
  accounts: Array<{ id: number; remote: string }>;
  /** a template that is not wide (compact form), for the extract */
  plain: string;
  /** a global wide template, the parent of the template the checks create, if there is one */
  wide?: { id: string; fields: string[] };
  /** an active account of another connection of the workspace, if there is one */
  elsewhere?: { connection: string; account: number };
}

/** A template's compact form says whether it is wide (Extraction template: compact form). */
async function isWide(token: string, id: string): Promise<boolean | undefined> {
  const res = await call('GET', `/api/v3/extract-template/${id}/`, { auth: { bearer: token } });
  return res.status === 200 ? res.body.is_wide_template === true : undefined;
}

/**
 * Contract: Extraction templates, extracts (table), Extraction template, Extract, Versioning 8
 * and 9, What the service does (an extract runs on a schedule or on demand). Validation,
 * preview and custom setting options change nothing and run read-only. An extract and a
 * template the checks create stay: the contract has no delete for either (each is reported at
 * the end of the run).
 */
describe('extraction', () => {
  let token: string;
  let workspace: number;
  let found: Found | undefined;
  const auth = () => ({ auth: { bearer: token } });

  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
    const active: Array<{ datasource: string; connection: string; accounts: Found['accounts'] }> = [];
    for (const ds of await allItems('/api/v3/datasources', { bearer: token })) {
      if (found && active.length >= 2) break;
      const name: string = ds[DATASOURCE.name];
      const mine: typeof active = [];
      for (const c of await allItems(`/api/v3/datasources/${encodeURIComponent(name)}/connections`, {
        bearer: token,
      })) {
        const accounts = (await allItems(`/api/v3/connections/${idText(c.id)}/accounts`, { bearer: token }))
          .filter((a) => a.is_active === true)
          .map((a) => ({ id: Number(idText(a.id)), remote: String(a.account_id) }));
        if (accounts.length > 0) mine.push({ datasource: name, connection: idText(c.id), accounts });
      }
      active.push(...mine);
      if (found || mine.length === 0) continue;
      let plain: string | undefined;
      let wide: Found['wide'];
      const templates = await allItems(`/api/v3/datasources/${encodeURIComponent(name)}/extract-templates`, {
        bearer: token,
      });
      for (const t of templates.slice(0, 20)) {
        const id = idText(t.id);
        const w = await isWide(token, id);
        if (w === false) plain ??= id;
        if (w === true && !wide && t[EXTRACT_TEMPLATE.isGlobal] === true) {
          const detail = await call(
            'GET',
            `/api/v3/datasources/${encodeURIComponent(name)}/extract-templates/${id}`,
            auth(),
          );
          if (detail.status === 200) wide = { id, fields: detail.body.fields.map((f: { name: string }) => f.name) };
        }
      }
      if (plain) found = { ...mine[0]!, plain, wide };
    }
    const other = found && active.find((a) => a.connection !== found!.connection);
    if (found && other) found.elsewhere = { connection: other.connection, account: other.accounts[0]!.id };
  });

  /** A check that needs what beforeAll found. */
  const withFound = (fn: (f: Found, ctx: TestContext) => Promise<void>) => async (ctx: TestContext) => {
    if (!found) return ctx.skip('no connection with an active account and a template of its data source');
    await fn(found, ctx);
  };
  /** The account the extract is made for: the connection's last active one (recipe checks take the first). */
  const account = (f: Found) => f.accounts[f.accounts.length - 1]!;
  const validate = (template: string, body: unknown) =>
    call('POST', `/api/v3/extract-template/${template}/validation/`, { ...auth(), json: body });

  test(
    'validation of a template against accounts of one connection succeeds (extractTemplates.validate; Extraction templates, validation)',
    withFound(async (f) => {
      expectStatus(await validate(f.plain, { accounts: [account(f).id] }), 200, 204);
    }),
  );

  test(
    'validation with accounts of two connections answers 400 (extractTemplates.validate; Extraction templates, validation)',
    withFound(async (f, ctx) => {
      if (!f.elsewhere) return ctx.skip('the workspace has one connection with active accounts only');
      expectDetailEnvelope(await validate(f.plain, { accounts: [account(f).id, f.elsewhere.account] }), 400);
    }),
  );

  test(
    'validation with an account that does not exist answers 400 (extractTemplates.validate; Extraction templates, validation)',
    withFound(async (f) => {
      expectDetailEnvelope(await validate(f.plain, { accounts: [NO_SUCH_ID] }), 400);
    }),
  );

  test(
    'validation with no account answers 400: accounts is a non-empty list (extractTemplates.validate; Extraction templates, validation)',
    withFound(async (f) => {
      expectDetailEnvelope(await validate(f.plain, { accounts: [] }), 400);
    }),
  );

  test(
    'a preview of a template for an account answers 200 (extractTemplates.preview)',
    withFound(async (f) => {
      const res = await call('POST', `/api/v3/extract-template/${f.plain}/preview/`, {
        ...auth(),
        json: { [PREVIEW.accounts]: [account(f).id] },
      });
      expectStatus(res, 200);
    }),
  );

  test(
    'custom setting options answer the paginated envelope, grouped by the accounts asked (extractTemplates.customSettingOptions)',
    withFound(async (f) => {
      const remotes = f.accounts.slice(0, 2).map((a) => a.remote);
      const res = await call(
        'POST',
        `/api/v3/datasources/${encodeURIComponent(f.datasource)}/custom_setting_options/`,
        {
          ...auth(),
          json: { connection_id: Number(f.connection), account_ids: remotes },
        },
      );
      expectStatus(res, 200);
      for (const key of ['count', 'next', 'previous', 'results']) expect(res.body).toHaveProperty(key);
      expect(res.body.results.length).toBeLessThanOrEqual(remotes.length);
      for (const group of res.body.results) expect(remotes).toContain(String(group[CUSTOM_SETTING_OPTIONS.account]));
    }),
  );

  describe('writes', () => {
    /** The extract the create check made, as first answered. */
    let made: any;
    const eid = () => idText(made.id);
    const onExtract = (name: string, fn: (f: Found, ctx: TestContext) => Promise<void>) =>
      writeCheck(name, async (ctx) => {
        if (!made) return ctx.skip('the create check made no extract');
        await fn(found!, ctx);
      });
    const read = () => call('GET', `/api/v3/extracts/${eid()}`, auth());
    /** What an update that does not name them keeps: the contract's fields of an extract, and its settings. */
    const kept = (e: any) => ({
      account_entity_id: idText(e.account_entity_id),
      account_embedded_id: e.account_embedded_id === null ? null : idText(e.account_embedded_id),
      sync_historical_data: e.sync_historical_data,
      is_wide_template: e.template.is_wide_template,
      settings: e[EXTRACT.settings],
    });

    writeCheck(
      'a wide template cannot be made without connection_id: 400 (extractTemplates.create; Extraction templates, create)',
      withFound(async (f, ctx) => {
        if (!f.wide) return ctx.skip('no global wide template for the data source');
        const title = `parity refused ${Date.now()}`;
        const res = await call('POST', `/api/v3/datasources/${encodeURIComponent(f.datasource)}/extract-templates`, {
          ...auth(),
          json: {
            [EXTRACT_TEMPLATE.parentId]: Number(f.wide.id),
            [EXTRACT_TEMPLATE.title]: title,
            [EXTRACT_TEMPLATE.fields]: f.wide.fields,
          },
        });
        if (res.status < 300 && res.body?.id !== undefined)
          leftBehind(
            workspace,
            `extraction template ${idText(res.body.id)} "${title}"`,
            'the contract has no delete for extraction templates',
          );
        expectDetailEnvelope(res, 400);
      }),
    );

    writeCheck(
      'a template made from a wide template answers 201, reads under its data source and is wide in its compact form (extractTemplates.create; extractTemplates.getCompact)',
      withFound(async (f, ctx) => {
        if (!f.wide) return ctx.skip('no global wide template for the data source');
        const title = `parity ${Date.now()}`;
        const res = await call('POST', `/api/v3/datasources/${encodeURIComponent(f.datasource)}/extract-templates`, {
          ...auth(),
          json: {
            [EXTRACT_TEMPLATE.parentId]: Number(f.wide.id),
            [EXTRACT_TEMPLATE.title]: title,
            connection_id: Number(f.connection),
            [EXTRACT_TEMPLATE.fields]: f.wide.fields,
          },
        });
        if (res.body?.id !== undefined)
          leftBehind(
            workspace,
            `extraction template ${idText(res.body.id)} "${title}"`,
            'the contract has no delete for extraction templates',
          );
        expectStatus(res, 201);
        const id = idText(res.body.id);
        const detail = await call(
          'GET',
          `/api/v3/datasources/${encodeURIComponent(f.datasource)}/extract-templates/${id}`,
          auth(),
        );
        expectStatus(detail, 200);
        expect(typeof detail.body.sql_name).toBe('string');
        expect(await isWide(token, id)).toBe(true);
      }),
    );

    writeCheck(
      'an extract is created at /api/v3.1/extracts/ and read at /api/v3/extracts/{id}, with account_entity_id, account_embedded_id, sync_historical_data and template.is_wide_template (extracts.create; extracts.get; Versioning 8 and 9)',
      withFound(async (f) => {
        const title = `parity ${Date.now()}`;
        const res = await call('POST', '/api/v3.1/extracts/', {
          ...auth(),
          json: {
            [EXTRACT.templateId]: Number(f.plain),
            [EXTRACT.account]: account(f).id,
            [EXTRACT.title]: title,
            [EXTRACT.settings]: { sync_historical_data: '2024-01-01' },
          },
        });
        if (res.body?.id !== undefined) {
          made = res.body;
          leftBehind(workspace, `extract ${eid()} "${title}" and the data table it fills`, NO_DELETE);
        }
        expectStatus(res, 201);
        expect(idText(res.body.account_entity_id)).toMatch(/^\d+$/);
        expect(idText(res.body.account_embedded_id)).toBe(String(account(f).id));
        expect(res.body.sync_historical_data === null || /^\d{4}-\d{2}-\d{2}/.test(res.body.sync_historical_data)).toBe(
          true,
        );
        expect(res.body.template.is_wide_template).toBe(false);
        const again = await read();
        expectStatus(again, 200);
        expect(idText(again.body.id)).toBe(eid());
        expect(kept(again.body)).toEqual(kept(res.body));
      }),
    );

    onExtract(
      'the list filters connection_id and datasource_name, single or comma-separated, find the extract (extracts.list; Extracts, list)',
      async (f) => {
        const ids = async (query: string) =>
          (await allItems(`/api/v3/extracts?${query}`, { bearer: token })).map((e) => idText(e.id));
        const other = f.elsewhere?.connection ?? String(NO_SUCH_ID);
        expect(await ids(`connection_id=${f.connection}`)).toContain(eid());
        expect(await ids(`connection_id=${other}`)).not.toContain(eid());
        expect(await ids(`connection_id=${other},${f.connection}`)).toContain(eid());
        expect(await ids(`datasource_name=${encodeURIComponent(f.datasource)}`)).toContain(eid());
      },
    );

    onExtract('PATCH is a partial update: the title it carries changes, the rest stays (extracts.update)', async () => {
      const before = await read();
      const title = `parity patched ${Date.now()}`;
      const res = await call('PATCH', `/api/v3/extracts/${eid()}`, { ...auth(), json: { [EXTRACT.title]: title } });
      expectStatus(res, 200);
      const after = await read();
      expect(after.body[EXTRACT.title]).toBe(title);
      expect(kept(after.body)).toEqual(kept(before.body));
    });

    onExtract(
      'sync_historical_data is read-only: a PATCH of it is refused or leaves it as it was (Extract)',
      async () => {
        const before = (await read()).body.sync_historical_data;
        const res = await call('PATCH', `/api/v3/extracts/${eid()}`, {
          ...auth(),
          json: { sync_historical_data: '2020-02-02' },
        });
        expectStatus(res, 200, 400);
        expect((await read()).body.sync_historical_data).toBe(before);
      },
    );

    onExtract(
      'an extract runs on demand: run answers 202 once no run is going (extracts.run; What the service does)',
      async () => {
        const end = Date.now() + parityWait(15) * 1000;
        let res: Answer;
        // A run still going (the one creation started) is a state conflict: wait for it.
        for (;;) {
          res = await call('POST', `/api/v3/extracts/${eid()}/run`, auth());
          if (res.status !== 409 || Date.now() > end) break;
          await new Promise((r) => setTimeout(r, 300));
        }
        expectStatus(res, 202);
        expect(idText(res.body.id)).toBe(eid());
      },
    );

    onExtract('PUT replaces the extract: a read then shows what it sent (extracts.replace)', async () => {
      const current = (await read()).body;
      const title = `parity replaced ${Date.now()}`;
      const res = await call('PUT', `/api/v3/extracts/${eid()}`, {
        ...auth(),
        json: {
          [EXTRACT.title]: title,
          [EXTRACT.schedule]: current[EXTRACT.schedule],
          [EXTRACT.settings]: { ...current[EXTRACT.settings], sync_historical_data: current.sync_historical_data },
        },
      });
      expectStatus(res, 200);
      const after = (await read()).body;
      expect(after[EXTRACT.title]).toBe(title);
      expect(kept(after)).toEqual(kept(current));
    });

    onExtract(
      'migrate-wide without template_settings answers 400: it is required (extracts.migrateWide; Extracts, migrate-wide)',
      async () => {
        const res = await call('POST', '/api/v3/extracts/migrate-wide', {
          ...auth(),
          json: { migrated_from_extraction_id: Number(eid()) },
        });
        if (res.status < 300 && res.body?.id !== undefined)
          leftBehind(workspace, `extract ${idText(res.body.id)} (a wide copy of extract ${eid()})`, NO_DELETE);
        expectDetailEnvelope(res, 400);
      },
    );

    onExtract(
      'migrate-wide answers a new extract on a wide template with the settings it omits copied; the original reads paused and its data table still reads (extracts.migrateWide; Extracts, migrate-wide)',
      async () => {
        const source = (await read()).body;
        const res = await call('POST', '/api/v3/extracts/migrate-wide', {
          ...auth(),
          json: { migrated_from_extraction_id: Number(eid()), template_settings: {} },
        });
        if (res.body?.id !== undefined)
          leftBehind(
            workspace,
            `extract ${idText(res.body.id)} (a wide copy of extract ${eid()}) and the data table it fills`,
            NO_DELETE,
          );
        expectStatus(res, 201);
        expect(idText(res.body.id)).not.toBe(eid());
        expect(res.body.template.is_wide_template).toBe(true);
        expect(res.body.sync_historical_data).toBe(source.sync_historical_data);
        const original = (await read()).body;
        expect(original[EXTRACT.paused]).toBe(true);
        expectStatus(await call('GET', `/api/v3/data-tables/${idText(source[EXTRACT.dataTableId])}`, auth()), 200);
      },
    );
  });
});
