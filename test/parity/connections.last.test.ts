import { beforeAll, describe, expect, type TestContext } from 'vitest';
import { writeCheck } from './checks.js';
import {
  allItems,
  call,
  canWrite,
  deletableConnections,
  expectStatus,
  idText,
  leftBehind,
  readWorkspace,
  tokenFor,
} from './target.js';
import { DATASOURCE, EXTRACT } from './vendor-names.js';

const NO_SUCH_ID = 2147483646;

interface Deletable {
  id: string;
  datasource: string;
  /** an active account, for an extract when the connection has none */
  account?: number;
}

/**
 * Contract: Data sources, connections, accounts (the two DELETE operations), Other state
 * effects (deleting a connection marks its accounts inactive and pauses its extractions).
 * A connection is made only through the iframe or an external authentication link, by a
 * person: a deleted one cannot be made again by the suite. So these checks run after every
 * other file (vitest.parity.config.ts), delete only connections EDP_PARITY_DELETE_CONNECTIONS
 * names (any, in a fresh sandbox), and report each one at the end of the run.
 */
describe('connections', () => {
  let workspace: number;
  let token: string;
  /** the connections these checks may delete, in the order they take them */
  const queue: Deletable[] = [];
  const auth = () => ({ auth: { bearer: token } });

  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
    if (!canWrite) return;
    for (const ds of await allItems('/api/v3/datasources', { bearer: token })) {
      const name: string = ds[DATASOURCE.name];
      for (const c of await allItems(`/api/v3/datasources/${encodeURIComponent(name)}/connections`, {
        bearer: token,
      })) {
        const id = idText(c.id);
        if (deletableConnections !== 'any' && !deletableConnections.includes(id)) continue;
        const accounts = await allItems(`/api/v3/connections/${id}/accounts`, { bearer: token });
        const active = accounts.find((a) => a.is_active === true);
        queue.push({ id, datasource: name, account: active ? Number(idText(active.id)) : undefined });
        if (queue.length >= 2) return;
      }
    }
  });

  writeCheck(
    'deleting a connection that does not exist answers 404, by either path (connections.delete; connections.deleteOfDatasource; Status meaning)',
    async () => {
      const sources = await allItems('/api/v3/datasources', { bearer: token });
      const name = encodeURIComponent(sources[0]?.[DATASOURCE.name] ?? 'google_ads');
      expectStatus(await call('DELETE', `/api/v3/datasources/${name}/connections/${NO_SUCH_ID}`, auth()), 404);
      expectStatus(await call('DELETE', `/api/v3/connections/${NO_SUCH_ID}`, auth()), 404);
    },
  );

  /**
   * Deletes the next connection of the queue through `path`, having made sure it has an
   * extract, and checks the contract's effects on its extracts and (when still listed) accounts.
   */
  const deleteCheck = (operation: string, path: (c: Deletable) => string) =>
    writeCheck(
      `${operation} answers 204; the connection's extracts then read paused and its accounts inactive (connections.delete; connections.deleteOfDatasource; Other state effects)`,
      async (ctx: TestContext) => {
        const c = queue.shift();
        if (!c)
          return ctx.skip(
            deletableConnections === 'any'
              ? 'no connection left in the scratch workspace'
              : deletableConnections.length === 0
                ? 'deletes a connection for good: name one the suite may delete in EDP_PARITY_DELETE_CONNECTIONS'
                : 'EDP_PARITY_DELETE_CONNECTIONS names no other connection of the scratch workspace',
          );
        const extractsOf = () => allItems(`/api/v3/extracts?connection_id=${c.id}`, { bearer: token });
        if ((await extractsOf()).length === 0 && c.account !== undefined) {
          // An extract to see paused: of the data source's first template that takes the account.
          const templates = await allItems(
            `/api/v3/datasources/${encodeURIComponent(c.datasource)}/extract-templates`,
            { bearer: token },
          );
          for (const t of templates.slice(0, 5)) {
            const res = await call('POST', '/api/v3.1/extracts/', {
              ...auth(),
              json: { [EXTRACT.templateId]: Number(idText(t.id)), [EXTRACT.account]: c.account },
            });
            if (res.status < 300 && res.body?.id !== undefined) {
              leftBehind(
                workspace,
                `extract ${idText(res.body.id)} on connection ${c.id}, made to see it paused`,
                'the contract has no delete for extracts',
              );
              break;
            }
          }
        }
        const res = await call('DELETE', path(c), auth());
        if (res.status < 300)
          leftBehind(
            workspace,
            `connection ${c.id} (${c.datasource}) deleted: its accounts inactive, its extracts paused`,
            'a connection is made only through the iframe or an external authentication link, by a person',
          );
        expectStatus(res, 204);
        expect(res.text).toBe('');
        const extracts = await extractsOf();
        expect(extracts.filter((e) => e[EXTRACT.paused] !== true).map((e) => idText(e.id))).toEqual([]);
        // A deleted connection may no longer list its accounts; when it does, none is active.
        const accounts = await call('GET', `/api/v3/connections/${c.id}/accounts`, auth());
        if (accounts.status === 200)
          expect(accounts.body.results.filter((a: { is_active: boolean }) => a.is_active)).toEqual([]);
        else expectStatus(accounts, 404);
      },
    );

  deleteCheck(
    'DELETE /api/v3/datasources/{datasource_name}/connections/{id}',
    (c) => `/api/v3/datasources/${encodeURIComponent(c.datasource)}/connections/${c.id}`,
  );
  deleteCheck('DELETE /api/v3/connections/{connection_id}', (c) => `/api/v3/connections/${c.id}`);
});
