import { existsSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UsageError } from '../errors.js';
import { readJsonFile } from '../util/document.js';
import { LosslessNumber, stringifyJson } from '../util/json.js';
import { SandboxError, errorBody } from './errors.js';
import type { Store } from './store.js';
import type { State } from './types.js';

/**
 * The saved state, read as every file is (UTF-8, a key given twice, depth, numbers:
 * util/document.ts) and without losing big integers in free-form fields; undefined when there
 * is no file. A file that cannot be read fails the start as any other fault (exit 1), with a
 * message naming the file and what is wrong with it.
 */
export function loadState(file: string): State | undefined {
  if (!existsSync(file)) return undefined;
  let read: ReturnType<typeof readJsonFile>;
  try {
    // The sandbox's own file, which may have grown past what a person's file may be.
    read = readJsonFile(file, '--state', { maxBytes: false });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    throw new Error(`${err.message}\nfix or delete ${file} (deleted, the sandbox starts from its demo data)`, {
      cause: err,
    });
  }
  const state = read.doc as State;
  if (typeof state !== 'object' || state === null || Array.isArray(state))
    throw new Error(`--state ${file} is not a sandbox state file (its JSON is not an object); fix or delete it`);
  return read.source.text.includes('"isLosslessNumber"') ? (reviveBigIntegers(state) as State) : state;
}

/**
 * Earlier versions saved a big integer of a free-form field as
 * `{"value": "…", "isLosslessNumber": true}`; such a file loads back into the integer.
 */
function reviveBigIntegers(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = reviveBigIntegers(value[i]);
  } else if (value !== null && typeof value === 'object' && !(value instanceof LosslessNumber)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (
      keys.length === 2 &&
      record.isLosslessNumber === true &&
      typeof record.value === 'string' &&
      /^-?\d+$/.test(record.value)
    ) {
      return new LosslessNumber(record.value);
    }
    for (const key of keys) record[key] = reviveBigIntegers(record[key]);
  }
  return value;
}

/**
 * The state file (--state): every change is saved right away, grouped with the other changes
 * made meanwhile (group commit: one save at a time; the changes made while it runs wait for
 * the next one, which then serves all of them). A failed save is reported, never thrown (the
 * sandbox keeps serving), and is retried with the next change.
 */
export class StateFile {
  /** Changes made so far (bumped by `changed`), and how many of them the file holds. */
  private changes = 0;
  private savedCount = 0;
  /** Requests waiting for their changes to reach the file, with the change count they need. */
  private waiters: Array<{ count: number; resolve: () => void; reject: (err: Error) => void }> = [];
  private saving: Promise<void> | undefined;
  /** The last save failure reported, so that a lasting failure is reported once, not per change. */
  private saveFailure: string | undefined;
  /** The change count a failed save tried to write: no retry until a change comes after it. */
  private failedAt = -1;

  constructor(
    readonly file: string,
    private readonly state: () => State,
    private readonly warn: (message: string) => void,
  ) {}

  changed(): void {
    this.changes++;
    this.startSaving();
  }

  /** How many changes were made so far. */
  get changeCount(): number {
    return this.changes;
  }

  /** True while the last save failed and no later one succeeded. */
  get saveFailing(): boolean {
    return this.saveFailure !== undefined;
  }

  /** True while some change is not yet in the state file. */
  get unsaved(): boolean {
    return this.changes > this.savedCount;
  }

  saved(): Promise<void> {
    if (!this.unsaved) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ count: this.changes, resolve, reject });
      this.startSaving();
    });
  }

  private startSaving(): void {
    if (this.saving) return;
    this.saving = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.saveLoop())
      .finally(() => {
        this.saving = undefined;
        // A change that arrived as the loop ended (or during a save that failed) gets its own round.
        if (this.unsaved && (this.waiters.length > 0 || this.changes > this.failedAt)) this.startSaving();
      });
  }

  private async saveLoop(): Promise<void> {
    while (this.unsaved) {
      const count = this.changes;
      try {
        // Serialized at once, so the text holds exactly the first `count` changes.
        await writeDurably(this.file, stringifyJson(this.state()));
      } catch (err) {
        const message = `Could not save the sandbox state to ${this.file}: ${(err as Error).message}. The sandbox keeps serving; the save is retried with the next change.`;
        if (message !== this.saveFailure) this.warn(message);
        this.saveFailure = message;
        this.failedAt = count;
        const failed = this.waiters;
        this.waiters = [];
        for (const w of failed) w.reject(err as Error);
        return;
      }
      if (this.saveFailure) this.warn(`The sandbox state is saved to ${this.file} again.`);
      this.saveFailure = undefined;
      this.savedCount = count;
      const done = this.waiters.filter((w) => w.count <= count);
      this.waiters = this.waiters.filter((w) => w.count > count);
      for (const w of done) w.resolve();
    }
  }
}

/**
 * Replaces `file` so that a crash at any moment leaves either the old or the new text: write
 * a temporary file beside it, fsync it, rename it over, fsync the folder (the rename itself).
 * The file holds passwords and tokens: readable by its owner only.
 */
async function writeDurably(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(tmp, file);
  try {
    const dir = await open(dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Some systems (Windows) cannot open or fsync a folder; the rename is still atomic there.
  }
}

/**
 * With --state, no answer goes out while a change it may show or acknowledge is not yet in
 * the state file: an answer given is a change kept, even after `kill -9`. Answers given while
 * nothing is unsaved (most reads) wait for nothing, and reads never cause a write. Without
 * --state it adds nothing to a request.
 */
export function answerAfterSave(app: FastifyInstance, store: Store): void {
  const file = store.file;
  if (!file) return;
  const changesAtStart = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', (request, _reply, done) => {
    changesAtStart.set(request, file.changeCount);
    done();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!file.unsaved) return payload;
    const changedHere = file.changeCount > (changesAtStart.get(request) ?? file.changeCount);
    // While saving fails, a read does not retry it (only the next change does) and is answered.
    if (!changedHere && file.saveFailing) return payload;
    try {
      await file.saved();
      return payload;
    } catch {
      if (!changedHere) return payload;
      // The change is made in memory but not kept: say so rather than acknowledge it.
      const err = new SandboxError(
        500,
        'internal_error',
        'The change was made but could not be saved to the state file; it is saved with the next change that can be.',
      );
      reply.code(500).type('application/json');
      return stringifyJson(errorBody(request.url, err));
    }
  });
}
