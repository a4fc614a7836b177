import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';
import { idText } from '../util/json.js';

/**
 * The signing secrets of the webhook endpoints a fleet apply created: one JSON file, mode 0600,
 * that `edp webhooks listen --secrets-file` reads, so that one receiver can check the
 * deliveries and answer the verifications of every workspace's endpoint (each has its own
 * secret). The service shows a secret only in the answer to its create or rotation.
 *
 * `{"format_version": 1, "endpoints": [{"workspace_id", "endpoint_id", "url", "secret"}]}`
 */
export interface SecretEntry {
  workspace_id: string;
  endpoint_id: string;
  url: string;
  secret: string;
}

interface SecretsDocument {
  format_version: 1;
  endpoints: SecretEntry[];
}

/** The entries of a secrets file; a usage error naming the file when it cannot be used. */
export function readSecretsFile(path: string, flag = '--secrets-file'): SecretEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag}: cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(err))}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag}: ${path} is not valid JSON (${(err as Error).message})`);
  }
  const endpoints = (doc as { endpoints?: unknown } | null)?.endpoints;
  if (!Array.isArray(endpoints) || (doc as { format_version?: unknown }).format_version !== 1)
    throw new UsageError(`${flag}: ${path} is not a secrets file written by \`edp apply --secrets-file\``);
  return endpoints.map((e: unknown, i) => {
    const entry = e as Partial<Record<keyof SecretEntry, unknown>> | null;
    if (!entry || typeof entry.secret !== 'string' || entry.secret === '')
      throw new UsageError(`${flag}: ${path}: endpoints[${i}].secret is missing`);
    return {
      workspace_id: idText(entry.workspace_id),
      endpoint_id: idText(entry.endpoint_id),
      url: typeof entry.url === 'string' ? entry.url : '',
      secret: entry.secret,
    };
  });
}

/**
 * Records secrets into the file as endpoints are created, one write at a time (workspaces are
 * applied concurrently), each write atomic (a temporary file renamed over it) and 0600. Entries
 * already in the file are kept; an endpoint recorded again replaces its entry.
 */
export class SecretsFileWriter {
  private chain: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Fails early (before any write to the service) when the file cannot be used. */
  check(): void {
    if (existsSync(this.path)) readSecretsFile(this.path);
  }

  record(entry: SecretEntry): Promise<void> {
    const next = this.chain.then(() => this.write(entry));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private write(entry: SecretEntry): void {
    const endpoints = existsSync(this.path) ? readSecretsFile(this.path) : [];
    const same = (e: SecretEntry) => e.workspace_id === entry.workspace_id && e.endpoint_id === entry.endpoint_id;
    const doc: SecretsDocument = { format_version: 1, endpoints: [...endpoints.filter((e) => !same(e)), entry] };
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(doc, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      chmodSync(temp, 0o600);
      renameSync(temp, this.path);
    } catch (err) {
      unlinkSync(temp);
      throw err;
    }
  }
}
