import { chmodSync, closeSync, existsSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { acquireLock, lockHolder, removeLeftovers, WRITE_LOCK_STALE_MS, WRITE_LOCK_WAIT_MS } from '../config/lock.js';
import { UsageError } from '../errors.js';
import { readJsonFile } from '../util/document.js';
import { idText, stringifyJson } from '../util/json.js';

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

/** The entries of a secrets file; a usage error naming the file when it cannot be used. */
export function readSecretsFile(path: string, flag = '--secrets-file'): SecretEntry[] {
  return readSecretsDocument(path, flag).entries;
}

/**
 * A secrets file as read, checked as every file is (UTF-8, a key given twice, depth, numbers:
 * util/document.ts): its entries, and the document itself, which a rewrite keeps as it was but
 * for the entry it replaces (fields edp does not know, ids of any size, secrets as they are).
 */
function readSecretsDocument(
  path: string,
  flag = '--secrets-file',
): { entries: SecretEntry[]; doc: Record<string, unknown>; endpoints: unknown[] } {
  const { doc } = readJsonFile(path, flag);
  const endpoints = (doc as { endpoints?: unknown } | null)?.endpoints;
  if (!Array.isArray(endpoints) || (doc as { format_version?: unknown }).format_version !== 1)
    throw new UsageError(`${flag}: ${path} is not a secrets file written by \`edp apply --secrets-file\``);
  const entries = endpoints.map((e: unknown, i) => {
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
  return { entries, doc: doc as Record<string, unknown>, endpoints };
}

/** A write whose lock was taken from it as stale before it landed starts over, at most this often. */
const WRITE_ATTEMPTS = 3;

/**
 * Records secrets into the file as endpoints are created, each write atomic (a temporary file
 * renamed over it) and 0600. Several applies may write the same file at once (one per agency,
 * or runs over parts of one): each write takes the lock file `<file>.lock` beside it (as the
 * config file's writes do, see config/lock.ts), reads the file afresh, adds its entry and
 * replaces the file before releasing the lock, so no entry another process wrote is lost.
 * Within a process, writes are made one at a time (workspaces are applied concurrently).
 * Entries already in the file are kept; an endpoint recorded again replaces its entry.
 */
export class SecretsFileWriter {
  private chain: Promise<void> = Promise.resolve();
  private swept = false;

  constructor(readonly path: string) {}

  get lockFile(): string {
    return `${this.path}.lock`;
  }

  /** Fails early (before any write to the service) when the file cannot be used. */
  check(): void {
    if (existsSync(this.path)) readSecretsFile(this.path);
  }

  record(entry: SecretEntry): Promise<void> {
    const next = this.chain.then(() => this.write(entry));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async write(entry: SecretEntry): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const lock = await acquireLock(this.lockFile, { waitMs: WRITE_LOCK_WAIT_MS, staleMs: WRITE_LOCK_STALE_MS });
      if (!lock) {
        const who = lockHolder(this.lockFile);
        throw new Error(
          `${this.path} stayed locked by another edp process${who ? ` (${who})` : ''}; ` +
            `if no edp process is running, delete ${this.lockFile}`,
        );
      }
      try {
        if (!this.swept) {
          this.swept = true;
          this.removeLeftovers();
        }
        if (this.replace(entry, () => lock.held())) return;
      } finally {
        lock.release();
      }
      if (attempt >= WRITE_ATTEMPTS)
        throw new Error(`could not write ${this.path}: other edp processes kept taking its lock`);
    }
  }

  /**
   * Reads the file as it is now, adds the entry and replaces the file; false, with nothing
   * changed, when the lock was lost before the file was replaced (another write may have landed).
   */
  private replace(entry: SecretEntry, stillLocked: () => boolean): boolean {
    const read = existsSync(this.path) ? readSecretsDocument(this.path) : undefined;
    const same = (e: SecretEntry) => e.workspace_id === entry.workspace_id && e.endpoint_id === entry.endpoint_id;
    // The other entries as they were read, not as edp would write them.
    const kept = read ? read.endpoints.filter((_, i) => !same(read.entries[i]!)) : [];
    const doc = { ...read?.doc, format_version: 1, endpoints: [...kept, entry] };
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${stringifyJson(doc, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      chmodSync(temp, 0o600);
      if (!stillLocked()) {
        unlinkSync(temp);
        return false;
      }
      renameSync(temp, this.path);
      return true;
    } catch (err) {
      try {
        unlinkSync(temp);
      } catch {
        // not there
      }
      throw err;
    }
  }

  /** Temporary files of writes to this file that were killed before their rename (they hold secrets). */
  private removeLeftovers(): void {
    const name = basename(this.path);
    removeLeftovers(dirname(this.path), {
      temporary: (n) => n.startsWith(`${name}.`) && /^\.\d+\.[0-9a-f]{8}\.tmp$/.test(n.slice(name.length)),
    });
  }
}
