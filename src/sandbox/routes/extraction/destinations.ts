import type { FastifyInstance } from 'fastify';
import {
  destinationConnectionCreate,
  destinationConnectionPatch,
  destinationConnectionPut,
} from '../../../contract/requests.js';
import { SandboxError, notFound } from '../../errors.js';
import { byId, paginate, parseBody, pathId, requireBearer } from '../../http.js';
import type { Store } from '../../store.js';
import type { Destination, DestinationConnection } from '../../types.js';
import { emitDestinationConnection, invalid } from './model.js';
import {
  CHUNK_PLACEHOLDER,
  DESTINATION_PARAMS,
  MAX_FILE_SIZE_MB,
  ROLE_ARN,
  S3_DEFAULT_FILENAME,
  S3_DEFAULT_OPTION,
  S3_FORMATS,
  S3_OPTIONS,
  S3_READ_ONLY,
} from '../../../contract/destinations.js';
import { serve } from '../../operations.js';

/** What a destination's `connection_params` may hold. */
interface ParamRules {
  known: string[];
  /**
   * write-only, never returned, sent all together or not at all (docs/contract-rules.md, Destination connections,
   * PUT rule)
   */
  secrets: string[];
  /** shown on GET, refused in requests */
  readOnly: string[];
  defaults: Record<string, unknown>;
  /** checks the merged parameters; `sent` is what the request carried */
  check(params: Record<string, unknown>, sent: Record<string, unknown>): void;
}

const P = 'connection_params';

function requireText(params: Record<string, unknown>, name: string): void {
  const v = params[name];
  if (v === undefined || v === null || v === '') throw invalid(`${P}.${name}`, 'required', 'required');
  if (typeof v !== 'string') throw invalid(`${P}.${name}`, 'must be a string');
}

function optionalText(params: Record<string, unknown>, name: string): void {
  const v = params[name];
  if (v !== undefined && v !== null && typeof v !== 'string') throw invalid(`${P}.${name}`, 'must be a string');
}

/**
 * The S3 parameters (docs/contract-rules.md, S3 destination connection parameters):
 * `connection_option` (`aws_credentials` default), AWS keys only for `aws_credentials`,
 * `assume_role_arn` for `role_chaining`, the service's role ARN and external id read-only, and
 * `max_file_size_mb` 45..100000 requiring `{{chunk_id}}` in `filename` and `file_format` `parquet`.
 */
const s3Rules: ParamRules = {
  known: [...DESTINATION_PARAMS.s3!.known],
  secrets: [...DESTINATION_PARAMS.s3!.secrets],
  readOnly: [...S3_READ_ONLY],
  defaults: {
    connection_option: S3_DEFAULT_OPTION,
    region: 'us-east-1',
    filename: S3_DEFAULT_FILENAME,
    file_format: S3_FORMATS[0],
  },
  check(params, sent) {
    const option = params.connection_option;
    if (typeof option !== 'string' || !(S3_OPTIONS as readonly string[]).includes(option)) {
      throw invalid(`${P}.connection_option`, `must be one of ${S3_OPTIONS.join(', ')}`);
    }
    requireText(params, 'bucket');
    for (const name of ['region', 'path_prefix', 'filename']) optionalText(params, name);
    if (option === 'aws_credentials') {
      for (const key of this.secrets) requireText(params, key);
    } else {
      const keys = this.secrets.filter((k) => sent[k] !== undefined);
      if (keys.length > 0)
        throw invalid(
          `${P}.${keys[0]}`,
          `AWS keys are used only with connection_option aws_credentials, not ${option}`,
        );
      for (const key of this.secrets) delete params[key];
    }
    if (option === 'role_chaining') {
      requireText(params, 'assume_role_arn');
      if (!ROLE_ARN.test(params.assume_role_arn as string))
        throw invalid(`${P}.assume_role_arn`, 'must be an IAM role ARN such as arn:aws:iam::123456789012:role/name');
    } else {
      if (sent.assume_role_arn !== undefined)
        throw invalid(`${P}.assume_role_arn`, `used only with connection_option role_chaining, not ${option}`);
      delete params.assume_role_arn;
    }
    if (!(S3_FORMATS as readonly unknown[]).includes(params.file_format))
      throw invalid(`${P}.file_format`, `must be one of ${S3_FORMATS.join(', ')}`);
    const size = params.max_file_size_mb;
    if (size === null || size === undefined) {
      delete params.max_file_size_mb;
      return;
    }
    const { min, max } = MAX_FILE_SIZE_MB;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < min || size > max) {
      throw invalid(`${P}.max_file_size_mb`, `must be a whole number from ${min} to ${max}`);
    }
    if (!String(params.filename ?? '').includes(CHUNK_PLACEHOLDER))
      throw invalid(`${P}.filename`, `must contain ${CHUNK_PLACEHOLDER} when max_file_size_mb is set`);
    if (params.file_format !== 'parquet')
      throw invalid(`${P}.file_format`, 'must be parquet when max_file_size_mb is set');
  },
};

const bigqueryRules: ParamRules = {
  known: [...DESTINATION_PARAMS.bigquery!.known],
  secrets: [...DESTINATION_PARAMS.bigquery!.secrets],
  readOnly: [],
  defaults: { location: 'US' },
  check(params) {
    requireText(params, 'project_id');
    requireText(params, 'dataset');
    optionalText(params, 'location');
    requireText(params, 'service_account_key');
  },
};

const sftpRules: ParamRules = {
  known: [...DESTINATION_PARAMS.sftp!.known],
  secrets: [...DESTINATION_PARAMS.sftp!.secrets],
  readOnly: [],
  defaults: { port: 22, path: '/' },
  check(params) {
    requireText(params, 'host');
    requireText(params, 'username');
    requireText(params, 'password');
    optionalText(params, 'path');
    const port = params.port;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
      throw invalid(`${P}.port`, 'must be a port number');
  },
};

const RULES: Record<string, ParamRules> = { s3: s3Rules, bigquery: bigqueryRules, sftp: sftpRules };

function rulesFor(name: string): ParamRules {
  const rules = RULES[name];
  if (!rules) throw new SandboxError(400, 'bad_request', `Destination "${name}" takes no connections here.`);
  return rules;
}

/**
 * Unknown names give 400 (docs/contract-rules.md, Destination connections, PUT rule); read-only ones are refused
 * too.
 */
function checkNames(rules: ParamRules, sent: Record<string, unknown>): void {
  for (const name of Object.keys(sent)) {
    if (rules.readOnly.includes(name)) throw invalid(`${P}.${name}`, 'is read-only');
    if (!rules.known.includes(name))
      throw invalid(`${P}.${name}`, `unknown parameter; known: ${rules.known.join(', ')}`);
  }
}

function numbersOf(params: Record<string, unknown>): Record<string, unknown> {
  // Bodies keep big integers exact; a parameter is a plain number here.
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      v !== null && typeof v === 'object' && 'isLosslessNumber' in v ? Number(String(v)) : v,
    ]),
  );
}

/**
 * The service's own role for role chaining; the names carry a neutral word for the maker
 * (docs/contract-rules.md, S3 destination connection parameters).
 */
function serviceRole(store: Store, dc: DestinationConnection) {
  return {
    service_assume_role_arn: 'arn:aws:iam::000000000000:role/edp-sandbox-service',
    service_assume_role_externalid: `edp-${store.state.agency.id}-${dc.workspace_id}-${dc.id}`,
  };
}

/** Secrets are never returned. */
export function destinationConnectionView(store: Store, dc: DestinationConnection) {
  const rules = RULES[dc.destination_name];
  const params = Object.fromEntries(Object.entries(dc.connection_params).filter(([k]) => !rules?.secrets.includes(k)));
  if (dc.destination_name === 's3' && params.connection_option === 'role_chaining')
    Object.assign(params, serviceRole(store, dc));
  return {
    id: dc.id,
    title: dc.title,
    destination_name: dc.destination_name,
    status: dc.status,
    error_text: dc.error_text ?? null,
    last_checked_at: dc.last_checked_at ?? null,
    connection_params: params,
    created_at: dc.created_at,
  };
}

/**
 * The connection check. The sandbox reaches every destination except S3 buckets whose name
 * starts with `invalid-`, so that a failing check can be produced on purpose.
 */
export function checkConnection(store: Store, dc: DestinationConnection): void {
  const unreachable = dc.destination_name === 's3' && String(dc.connection_params.bucket ?? '').startsWith('invalid-');
  const status = unreachable ? 'error' : 'active';
  const errorText = unreachable ? `Access denied to bucket "${String(dc.connection_params.bucket)}".` : null;
  dc.last_checked_at = store.clock.iso();
  emitDestinationConnection(store, 'destination_connection_check_run', dc);
  if (status !== dc.status) {
    dc.status = status;
    emitDestinationConnection(store, 'status_changed', dc);
  }
  if (errorText !== (dc.error_text ?? null)) {
    dc.error_text = errorText;
    emitDestinationConnection(store, 'error_text_changed', dc);
  }
}

export function destinationRoutes(app: FastifyInstance, store: Store): void {
  const s = () => store.state;
  const destination = (name: string): Destination => {
    const d = s().destinations.find((x) => x.name === name);
    if (!d) throw notFound(`Destination "${name}" not found.`);
    return d;
  };
  const connection = (connectionId: string, wsId: number, d: Destination): DestinationConnection => {
    const id = pathId(connectionId);
    const dc = s().destination_connections.find(
      (x) => x.id === id && x.workspace_id === wsId && x.destination_name === d.name,
    );
    if (!dc) throw notFound('Destination connection not found.');
    return dc;
  };

  serve(app, 'destinations.list', async (request) => {
    requireBearer(store, request);
    const items = [...s().destinations]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ name, title }) => ({ name, title }));
    return paginate(request, items, { mode: 'v3' });
  });

  serve<{ Params: { destination_name: string } }>(app, 'destinationConnections.list', async (request) => {
    const auth = requireBearer(store, request);
    const d = destination(request.params.destination_name);
    const items = s()
      .destination_connections.filter((dc) => dc.workspace_id === auth.workspaceId && dc.destination_name === d.name)
      .sort(byId)
      .map((dc) => destinationConnectionView(store, dc));
    return paginate(request, items, { mode: 'v3' });
  });

  serve<{ Params: { destination_name: string } }>(
    app,
    'destinationConnections.create',
    { config: { body: destinationConnectionCreate } },
    async (request, reply) => {
      const auth = requireBearer(store, request);
      const d = destination(request.params.destination_name);
      const rules = rulesFor(d.name);
      const body = parseBody(destinationConnectionCreate, request.body);
      const sent = numbersOf(body.connection_params);
      checkNames(rules, sent);
      const params = { ...rules.defaults, ...sent };
      rules.check(params, sent);
      const dc: DestinationConnection = {
        id: store.nextId('destination_connection'),
        workspace_id: auth.workspaceId,
        destination_name: d.name,
        title: body.title,
        status: 'new',
        connection_params: params,
        created_at: store.clock.iso(),
        error_text: null,
        last_checked_at: null,
      };
      s().destination_connections.push(dc);
      emitDestinationConnection(store, 'destination_connection_created', dc);
      checkConnection(store, dc);
      store.changed();
      return reply.code(201).send(destinationConnectionView(store, dc));
    },
  );

  serve<{ Params: { id: string; destination_name: string } }>(app, 'destinationConnections.get', async (request) => {
    const auth = requireBearer(store, request);
    return destinationConnectionView(
      store,
      connection(request.params.id, auth.workspaceId, destination(request.params.destination_name)),
    );
  });

  // PATCH (body not shown) changes the title only; parameters change through PUT, which re-checks them.
  serve<{ Params: { id: string; destination_name: string }; Body: Record<string, unknown> | undefined }>(
    app,
    'destinationConnections.update',
    { config: { body: destinationConnectionPatch } },
    async (request) => {
      const auth = requireBearer(store, request);
      const dc = connection(request.params.id, auth.workspaceId, destination(request.params.destination_name));
      const raw = request.body ?? {};
      if (raw && typeof raw === 'object' && 'connection_params' in raw)
        throw invalid('connection_params', 'change parameters with PUT');
      const body = parseBody(destinationConnectionPatch, request.body);
      if (body.title !== undefined && body.title !== dc.title) {
        dc.title = body.title;
        emitDestinationConnection(store, 'title_changed', dc);
        store.changed();
      }
      return destinationConnectionView(store, dc);
    },
  );

  /**
   * Parameters merged per field, omitted ones keep their values; secret fields all together or
   * none; unknown names 400; success triggers a re-check (docs/contract-rules.md, Destination
   * connections, PUT rule).
   */
  serve<{ Params: { destination_name: string; id: string } }>(
    app,
    'destinationConnections.merge',
    { config: { body: destinationConnectionPut } },
    async (request) => {
      const auth = requireBearer(store, request);
      const d = destination(request.params.destination_name);
      const dc = connection(request.params.id, auth.workspaceId, d);
      const rules = rulesFor(d.name);
      const body = parseBody(destinationConnectionPut, request.body);
      const sent = numbersOf(body.connection_params);
      checkNames(rules, sent);
      const sentSecrets = rules.secrets.filter((k) => sent[k] !== undefined);
      if (sentSecrets.length > 0 && sentSecrets.length < rules.secrets.length) {
        const missing = rules.secrets.filter((k) => sent[k] === undefined);
        throw invalid(
          `${P}.${missing[0]}`,
          `secret fields are sent all together or not at all: also send ${missing.join(', ')}`,
        );
      }
      const params = { ...dc.connection_params, ...sent };
      rules.check(params, sent);
      if (body.title !== undefined && body.title !== dc.title) {
        dc.title = body.title;
        emitDestinationConnection(store, 'title_changed', dc);
      }
      dc.connection_params = params;
      if (sentSecrets.length > 0) emitDestinationConnection(store, 'secret_key_changed', dc);
      emitDestinationConnection(store, 'destination_connection_changed', dc);
      checkConnection(store, dc);
      store.changed();
      return destinationConnectionView(store, dc);
    },
  );

  serve<{ Params: { destination_connection_id: string; destination_name: string } }>(
    app,
    'destinationConnections.recheck',
    async (request) => {
      const auth = requireBearer(store, request);
      const dc = connection(
        request.params.destination_connection_id,
        auth.workspaceId,
        destination(request.params.destination_name),
      );
      checkConnection(store, dc);
      store.changed();
      return destinationConnectionView(store, dc);
    },
  );
}
