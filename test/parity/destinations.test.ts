import { afterAll, beforeAll, describe, expect, type TestContext } from 'vitest';
import { writeCheck } from './checks.js';
import {
  allItems,
  call,
  canWrite,
  expectDetailEnvelope,
  expectStatus,
  idText,
  leftBehind,
  readWorkspace,
  tokenFor,
  type Answer,
} from './target.js';
import { DESTINATION, DESTINATION_CONNECTION, LOAD, S3 } from './vendor-names.js';

/** A role ARN of the form the contract's role chaining takes (`assume_role_arn`). */
const ROLE_ARN = 'arn:aws:iam::123456789012:role/parity-check';

/**
 * Contract: Destinations, data tables, loads (table), S3 destination connection parameters,
 * Limits (`max_file_size_mb`). A destination connection the checks create stays (the contract
 * has no delete for them: it is reported at the end of the run); a load they create is deleted.
 */
describe('destinations', () => {
  let token: string;
  let workspace: number;
  /** the S3 destination's name, when the service offers one */
  let s3: string | undefined;
  const auth = () => ({ auth: { bearer: token } });

  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
    const destinations = await allItems('/api/v3/destinations', { bearer: token });
    s3 = destinations.map((d) => String(d[DESTINATION.name])).find((n) => n === 's3');
  });

  describe('an S3 connection', () => {
    /** The connection the create check made: its path. */
    let path: string | undefined;
    const read = () => call('GET', path!, auth());
    const put = (params: Record<string, unknown>) =>
      call('PUT', path!, { ...auth(), json: { connection_params: params } });
    const params = async () => (await read()).body.connection_params as Record<string, unknown>;
    const onConnection = (name: string, fn: (ctx: TestContext) => Promise<void>) =>
      writeCheck(name, async (ctx) => {
        if (!path) return ctx.skip('the create check made no S3 connection');
        await fn(ctx);
      });

    writeCheck(
      'max_file_size_mb below 45 is refused on create: 400 (S3 destination connection parameters, Limits)',
      async (ctx) => {
        if (!s3) return ctx.skip('the service offers no S3 destination');
        const title = `parity refused ${Date.now()}`;
        const res = await call('POST', `/api/v3/destinations/${s3}/connections`, {
          ...auth(),
          json: {
            [DESTINATION_CONNECTION.title]: title,
            connection_params: {
              connection_option: 'role_chaining',
              assume_role_arn: ROLE_ARN,
              [S3.bucket]: 'parity-check',
              filename: '{{table_name}}/{{date}}_{{chunk_id}}.parquet',
              file_format: 'parquet',
              max_file_size_mb: 44,
            },
          },
        });
        if (res.status < 300 && res.body?.id !== undefined)
          leftBehind(
            workspace,
            `S3 destination connection ${idText(res.body.id)} "${title}"`,
            'the contract has no delete for destination connections',
          );
        expectDetailEnvelope(res, 400);
      },
    );

    writeCheck(
      'create answers 201 with the connection, which reads back with its connection_params (destinationConnections.create)',
      async (ctx) => {
        if (!s3) return ctx.skip('the service offers no S3 destination');
        const title = `parity ${Date.now()}`;
        const res = await call('POST', `/api/v3/destinations/${s3}/connections`, {
          ...auth(),
          json: {
            [DESTINATION_CONNECTION.title]: title,
            connection_params: {
              connection_option: 'aws_credentials',
              [S3.bucket]: 'parity-check',
              [S3.accessKeyId]: 'AKIAPARITYCHECK00000',
              [S3.secretAccessKey]: 'parity-check-secret-not-a-real-key',
              filename: '{{table_name}}/{{date}}.csv',
            },
          },
        });
        if (res.body?.id !== undefined) {
          path = `/api/v3/destinations/${s3}/connections/${idText(res.body.id)}`;
          leftBehind(
            workspace,
            `S3 destination connection ${idText(res.body.id)} "${title}"`,
            'the contract has no delete for destination connections',
          );
        }
        expectStatus(res, 201);
        const back = await read();
        expectStatus(back, 200);
        expect(back.body.connection_params[S3.bucket]).toBe('parity-check');
        expect(back.body.connection_params.connection_option).toBe('aws_credentials');
      },
    );

    onConnection(
      'PUT merges connection_params per field: the one sent changes, the omitted ones keep their values (destinationConnections.merge; Destination connections, PUT rule)',
      async () => {
        const before = await params();
        const res = await put({ filename: 'parity/{{table_name}}/{{date}}.csv' });
        expectStatus(res, 200);
        const after = await params();
        expect(after.filename).toBe('parity/{{table_name}}/{{date}}.csv');
        expect({ ...after, filename: before.filename }).toEqual(before);
      },
    );

    onConnection(
      'PUT with an unknown parameter name answers 400 (destinationConnections.merge; Destination connections, PUT rule)',
      async () => {
        const before = await params();
        expectDetailEnvelope(await put({ parity_unknown_parameter: 'x' }), 400);
        expect(await params()).toEqual(before);
      },
    );

    onConnection(
      'PUT with one AWS key without the other answers 400: secret fields go all together or not at all (destinationConnections.merge; Destination connections, PUT rule)',
      async () => {
        expectDetailEnvelope(await put({ [S3.accessKeyId]: 'AKIAPARITYCHECK00001' }), 400);
      },
    );

    onConnection(
      'max_file_size_mb needs {{chunk_id}} in filename and file_format parquet: 400 without them, 200 with them (S3 destination connection parameters)',
      async () => {
        expectDetailEnvelope(await put({ max_file_size_mb: 100, filename: '{{table_name}}/{{date}}.csv' }), 400);
        const res = await put({
          max_file_size_mb: 100,
          filename: '{{table_name}}/{{date}}_{{chunk_id}}.parquet',
          file_format: 'parquet',
        });
        expectStatus(res, 200);
        expect((await params()).max_file_size_mb).toBe(100);
      },
    );

    onConnection('max_file_size_mb above 100000 answers 400 (Limits: 45 to 100000)', async () => {
      expectDetailEnvelope(await put({ max_file_size_mb: 100_001 }), 400);
      expect((await params()).max_file_size_mb).toBe(100);
    });

    onConnection(
      "role_chaining takes assume_role_arn without AWS keys, and reads show the service's role ARN and external id (S3 destination connection parameters)",
      async () => {
        const res = await put({ connection_option: 'role_chaining', assume_role_arn: ROLE_ARN });
        expectStatus(res, 200);
        const after = await params();
        expect(after.connection_option).toBe('role_chaining');
        expect(after.assume_role_arn).toBe(ROLE_ARN);
        expect(typeof after.service_assume_role_arn).toBe('string');
        expect(typeof after.service_assume_role_externalid).toBe('string');
      },
    );

    onConnection('PATCH changes the title: a read then shows it (destinationConnections.update)', async () => {
      const title = `parity patched ${Date.now()}`;
      expectStatus(await call('PATCH', path!, { ...auth(), json: { [DESTINATION_CONNECTION.title]: title } }), 200);
      expect((await read()).body[DESTINATION_CONNECTION.title]).toBe(title);
    });

    onConnection(
      'a recheck answers 200 and leaves the parameters as they were (destinationConnections.recheck)',
      async () => {
        const before = await params();
        expectStatus(await call('PUT', `${path}/recheck`, auth()), 200);
        expect(await params()).toEqual(before);
      },
    );
  });

  describe('a load', () => {
    let id: string | undefined;
    let refs: { table: number; destination: number } | undefined;
    const read = (): Promise<Answer> => call('GET', `/api/v3/loads/${id}`, auth());
    const onLoad = (name: string, fn: (ctx: TestContext) => Promise<void>) =>
      writeCheck(name, async (ctx) => {
        if (!id) return ctx.skip('the create check made no load');
        await fn(ctx);
      });

    beforeAll(async () => {
      if (!canWrite) return;
      const tables = await allItems('/api/v3/data-tables', { bearer: token });
      for (const d of await allItems('/api/v3/destinations', { bearer: token })) {
        const connections = await allItems(`/api/v3/destinations/${d[DESTINATION.name]}/connections`, {
          bearer: token,
        });
        if (tables.length > 0 && connections.length > 0) {
          refs = { table: Number(idText(tables[0].id)), destination: Number(idText(connections[0].id)) };
          return;
        }
      }
    });

    // The load is deleted whatever the checks concluded.
    afterAll(async () => {
      if (id) await call('DELETE', `/api/v3/loads/${id}`, auth());
    });

    writeCheck('create answers 201 and the load reads by its id (loads.create)', async (ctx) => {
      if (!refs) return ctx.skip('no data table or no destination connection in the scratch workspace');
      const title = `parity ${Date.now()}`;
      const res = await call('POST', '/api/v3/loads', {
        ...auth(),
        json: {
          [LOAD.title]: title,
          [LOAD.dataTableId]: refs.table,
          [LOAD.destinationConnectionId]: refs.destination,
        },
      });
      if (res.body?.id !== undefined) id = idText(res.body.id);
      expectStatus(res, 201);
      const back = await read();
      expectStatus(back, 200);
      expect(back.body[LOAD.title]).toBe(title);
      expect(Number(idText(back.body[LOAD.dataTableId]))).toBe(refs.table);
    });

    onLoad('PUT replaces the load: a read then shows what it sent (loads.replace)', async () => {
      const current = (await read()).body;
      const title = `parity replaced ${Date.now()}`;
      const res = await call('PUT', `/api/v3/loads/${id}`, {
        ...auth(),
        json: {
          [LOAD.title]: title,
          [LOAD.dataTableId]: refs!.table,
          [LOAD.destinationConnectionId]: refs!.destination,
          [LOAD.schedule]: current[LOAD.schedule],
        },
      });
      expectStatus(res, 200);
      expect((await read()).body[LOAD.title]).toBe(title);
    });

    onLoad(
      'DELETE answers 204; the load then reads 404 and leaves the list (loads.delete; Status meaning 404)',
      async () => {
        const res = await call('DELETE', `/api/v3/loads/${id}`, auth());
        expectStatus(res, 204);
        const gone = id!;
        id = undefined;
        expectStatus(await call('GET', `/api/v3/loads/${gone}`, auth()), 404);
        expect((await allItems('/api/v3/loads', { bearer: token })).map((l) => idText(l.id))).not.toContain(gone);
      },
    );
  });
});
