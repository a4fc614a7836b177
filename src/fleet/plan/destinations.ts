import { suggest } from '../../util/suggest.js';
import { listDestinationConnections, type DestinationConnection } from '../../api/destinations.js';
import type { Service } from '../../api/service.js';
import { DESTINATION_PARAMS, S3_DEFAULT_OPTION } from '../../contract/destinations.js';
import { ApiError } from '../../errors.js';
import { collect } from '../../util/collect.js';
import { idText, stringifyJson } from '../../util/json.js';
import type { DestinationEntry } from '../kinds-file.js';
import { isEnvSecret, secretText, sentValue, shownValue } from '../values.js';
import type { Change, WorkspacePlan } from './types.js';
import { withWork } from './work.js';

/**
 * Planning the fleet file's `destinations:` section in one workspace: destination connections
 * matched by destination and title. Parameters are merged per field by the service (an omitted
 * one keeps its value), so only those the file gives are compared. Secret fields are never
 * returned (docs/contract-rules.md, Destination connections, PUT rule): a plan cannot compare
 * them, so they are sent when the connection is created, and again only with `--send-secrets`,
 * all together (the service refuses some without the others). The contract has no delete for
 * destination connections: those the file does not name are left alone.
 */

/** The secret fields of a destination, as far as the contract (S3) or the sandbox names them. */
export const secretsOf = (destination: string): readonly string[] => DESTINATION_PARAMS[destination]?.secrets ?? [];

/** A parameter as a plan shows it: a secret field never by its value. */
export function shownParam(destination: string, name: string, value: unknown): unknown {
  if (isEnvSecret(value)) return secretText(value);
  return secretsOf(destination).includes(name) ? '(secret)' : shownValue(value);
}

/** What apply sends for a destination change: the parameters with their values. */
export interface DestinationWork {
  destination: string;
  title: string;
  params: Record<string, unknown>;
}

export function destinationReader(
  api: Service,
  ws: string,
): (destination: string) => Promise<DestinationConnection[] | undefined> {
  const cache = new Map<string, Promise<DestinationConnection[] | undefined>>();
  return (d) => {
    let read = cache.get(d);
    if (!read) {
      read = collect(listDestinationConnections(api, ws, d)).catch((err: unknown) => {
        // An unknown destination (404): said by the entry, not the workspace's read.
        if (err instanceof ApiError && err.status === 404) return undefined;
        throw err;
      });
      cache.set(d, read);
    }
    return read;
  };
}

const same = (a: unknown, b: unknown) => stringifyJson(a ?? null) === stringifyJson(b ?? null);

export async function planDestinations(
  ws: string,
  entries: DestinationEntry[],
  read: (destination: string) => Promise<DestinationConnection[] | undefined>,
  sendSecrets: boolean,
  out: WorkspacePlan,
): Promise<void> {
  const lists = await Promise.all(entries.map((e) => read(e.destination)));
  entries.forEach((entry, i) => {
    const live = lists[i];
    const name = entry.title;
    const block = (code: string, message: string) => out.blocked.push({ resource: 'destination', name, code, message });
    if (live === undefined) {
      block(
        'destination_not_found',
        `the service has no destination "${entry.destination}"; \`${suggest(['destinations', 'list'], { workspace: ws })}\` lists them`,
      );
      return;
    }
    const secrets = secretsOf(entry.destination);
    const given = secrets.filter((k) => entry.params[k] !== undefined);
    const partial = given.length > 0 && given.length < secrets.length;
    const incomplete = () =>
      block(
        'secret_fields_incomplete',
        `the secret fields of a ${entry.destination} connection are sent all together or not at all (Destination connections, PUT rule): the file gives ${given.join(', ')} without ${secrets.filter((k) => !given.includes(k)).join(', ')}; add them (from the environment: "\${env.NAME}")`,
      );
    const titled = live.filter((c) => c.title === entry.title);
    if (titled.length > 1) {
      block(
        'destination_ambiguous',
        `${titled.length} ${entry.destination} connections of workspace ${ws} are titled "${entry.title}" (${titled.map((c) => idText(c.id)).join(', ')}); rename all but one (\`${suggest(['destinations', 'connections', 'update', idText(titled[0]!.id), '--destination', entry.destination, '--title', 'NEW TITLE'], { workspace: ws })}\`)`,
      );
      return;
    }
    const found = titled[0];
    if (!found) {
      if (partial) return incomplete();
      const option = entry.params.connection_option ?? S3_DEFAULT_OPTION;
      if (entry.destination === 's3' && option === 'aws_credentials' && given.length === 0) {
        // The AWS keys are needed for aws_credentials (docs/contract-rules.md, S3 destination connection parameters).
        block(
          'secret_fields_missing',
          `an s3 connection with connection_option aws_credentials needs ${secrets.join(' and ')}; add them to params (from the environment: "\${env.NAME}")`,
        );
        return;
      }
      const change: Change = {
        resource: 'destination',
        name,
        action: 'create',
        id: null,
        detail: {
          destination: entry.destination,
          params: Object.fromEntries(
            Object.entries(entry.params).map(([k, v]) => [k, shownParam(entry.destination, k, v)]),
          ),
        },
      };
      withWork<DestinationWork>(change, { destination: entry.destination, title: entry.title, params: entry.params });
      out.changes.push(change);
      return;
    }
    const have = found.connection_params ?? {};
    const differs = Object.entries(entry.params).filter(
      ([k, v]) => !secrets.includes(k) && !same(sentValue(v), have[k]),
    );
    const resend = sendSecrets && given.length > 0;
    if (resend && partial) return incomplete();
    if (differs.length === 0 && !resend) return;
    const sent = Object.fromEntries([...differs, ...(resend ? given.map((k) => [k, entry.params[k]]) : [])]);
    const change: Change = {
      resource: 'destination',
      name,
      action: 'update',
      id: found.id,
      detail: {
        destination: entry.destination,
        params: Object.fromEntries(
          differs.map(([k, v]) => [
            k,
            { was: shownParam(entry.destination, k, have[k]), now: shownParam(entry.destination, k, v) },
          ]),
        ),
        secrets: resend ? given : [],
      },
    };
    withWork<DestinationWork>(change, { destination: entry.destination, title: entry.title, params: sent });
    out.changes.push(change);
  });
}
