import { nodeCrypto } from '../util/crypto.js';
import type Conf from 'conf';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { suggest } from '../util/suggest.js';
import { acquireLock, lockHolder, removeLeftovers, WRITE_LOCK_STALE_MS, WRITE_LOCK_WAIT_MS } from './lock.js';
import { ISSUANCE_LOCK_LEFT_OVER_MS, isIssuanceLockName, type TokenCacheEntry } from './token-cache.js';

export interface Profile {
  base_url?: string;
  username?: string;
  password?: string;
  /** cookie session (`dts_session_id`), an alternative to tokens */
  session_id?: string;
  /** settings (`edp config`, see settings.ts) */
  workspace?: string;
  concurrency?: number | 'auto';
  poll_interval?: string;
}

export interface ConfigFile {
  profiles?: Record<string, Profile>;
  /** Random per-file salt of the identity digests in token cache keys. */
  token_key_salt?: string;
  /** Workspace tokens by `tokenCacheKey(service, identity, workspace)`. */
  tokens?: Record<string, TokenCacheEntry>;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** conf's temporary files (atomically's `config.json.tmp-<time><random>`), renamed over the file once written. */
const TEMPORARY = /^config\.json\.tmp-[0-9a-f]+$/;
/** A write whose lock was broken as stale before it landed starts over, at most this often. */
const WRITE_ATTEMPTS = 3;

export function configDir(env: Record<string, string | undefined>): string {
  if (env.EDP_CONFIG_DIR) return env.EDP_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'edp');
}

/**
 * A profile name: letters, digits, "-" and "_", and none of the names every object has
 * (`__proto__`, `constructor`, `toString`, …) or `prototype`: profiles are the keys of a JSON
 * object, and such a name would read or write something else than a profile.
 */
export function checkProfileName(name: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new UsageError(`--profile (or EDP_PROFILE) must be letters, digits, "-" or "_", got "${name}"`);
  }
  if (name in Object.prototype || name === 'prototype') {
    throw new UsageError(`--profile (or EDP_PROFILE) "${name}" is a reserved name; choose another profile name`);
  }
  return name;
}

/** The configuration file cannot be used: unreadable, not JSON, or not the expected shape (exit 2, nothing sent). */
export class ConfigFileError extends UsageError {
  readonly file: string;
  constructor(file: string, problem: string) {
    super(
      `the configuration file ${file} ${problem}. Nothing was changed. Move it aside (mv "${file}" "${file}.broken"), ` +
        `then run \`${suggest(['auth', 'login'])}\` to create a new one; each profile it held must be logged in again.`,
    );
    this.name = 'ConfigFileError';
    this.file = file;
  }
}

/**
 * The credential store: one JSON file, mode 0600 in a 0700 folder.
 *
 * Reading is a plain file read, because every command reads it and start-up time matters.
 * Writing never trusts what was read earlier: other edp processes may have changed the file
 * since (a logout, a login to another profile, a token they issued). Each write takes the lock
 * file `config.json.lock`, reads the file afresh, applies only its own change to it, and
 * replaces the file atomically (temporary file in the same folder, fsync, rename), so a reader
 * sees the old or the new file, never half of one, and no write undoes another's.
 */
export class ConfigStore {
  readonly dir: string;
  readonly file: string;
  readonly lockFile: string;
  private snapshot: ConfigFile | undefined;
  private saltWrite: { salt: string; written: Promise<string> } | undefined;
  /** conf's store, once this process writes or is about to (`prepareWrite`). */
  private conf: Promise<Conf<ConfigFile>> | undefined;
  /** Changes started and not yet written or failed. */
  private readonly writing = new Set<Promise<unknown>>();

  constructor(dir: string) {
    this.dir = dir;
    this.file = join(dir, 'config.json');
    this.lockFile = `${this.file}.lock`;
  }

  /** The file as last read or written by this process; read once, then kept. Do not mutate it. */
  read(): ConfigFile {
    this.snapshot ??= this.load();
    return this.snapshot;
  }

  /** The file as it is now. */
  reread(): ConfigFile {
    this.snapshot = this.load();
    return this.snapshot;
  }

  profile(name: string): Profile {
    const profiles = this.read().profiles;
    return (profiles && Object.hasOwn(profiles, name) ? profiles[name] : undefined) ?? {};
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles ?? {});
  }

  /**
   * Changes the file: `change` receives the file as it is now (read under the lock) and
   * modifies it in place. It may run more than once, so it must depend only on what it is given.
   * Resolves to the file as written.
   */
  update(change: (config: ConfigFile) => void): Promise<ConfigFile> {
    const written = this.write(change);
    this.writing.add(written);
    const done = () => this.writing.delete(written);
    written.then(done, done);
    return written;
  }

  /**
   * Resolves once every change this process started is written or has failed, also those
   * nobody awaits (the salt written while a password is digested): the process may end then.
   */
  async settled(): Promise<void> {
    while (this.writing.size > 0) await Promise.allSettled([...this.writing]);
  }

  private async write(change: (config: ConfigFile) => void): Promise<ConfigFile> {
    this.ensureDir();
    for (let attempt = 1; ; attempt++) {
      const lock = await acquireLock(this.lockFile, { waitMs: WRITE_LOCK_WAIT_MS, staleMs: WRITE_LOCK_STALE_MS });
      if (!lock) {
        const who = lockHolder(this.lockFile);
        throw new Error(
          `the configuration file ${this.file} stayed locked by another edp process${who ? ` (${who})` : ''}; ` +
            `if no edp process is running, delete ${this.lockFile}`,
        );
      }
      try {
        this.removeLeftovers();
        const fresh = this.load();
        const before = JSON.stringify(fresh);
        change(fresh);
        dropLegacyTokens(fresh);
        if (JSON.stringify(fresh) === before) {
          this.snapshot = fresh;
          return fresh;
        }
        // A lock lost meanwhile (taken for stale by another process) means another change may
        // have landed: read afresh and apply the change again.
        if (lock.held()) {
          await this.save(fresh);
          this.snapshot = fresh;
          return fresh;
        }
      } finally {
        lock.release();
      }
      if (attempt >= WRITE_ATTEMPTS)
        throw new Error(`could not write ${this.file}: other edp processes kept taking its lock`);
    }
  }

  /**
   * Under the lock: removes what processes killed while writing left in the folder, conf's
   * temporary files (0600, with the passwords of the file) and token issuance locks whose holder
   * is gone. Left alone, the locks would stay until the same token is asked for again.
   */
  private removeLeftovers(): void {
    removeLeftovers(this.dir, {
      temporary: (name) => TEMPORARY.test(name),
      lock: isIssuanceLockName,
      lockStaleMs: ISSUANCE_LOCK_LEFT_OVER_MS,
    });
  }

  /** Changes one profile; `change` returns the new profile, or undefined to delete it. */
  async updateProfile(name: string, change: (profile: Profile) => Profile | undefined): Promise<void> {
    await this.update((config) => {
      const profiles = config.profiles ?? {};
      const next = change({ ...(profiles[name] ?? {}) });
      if (next === undefined) delete profiles[name];
      else profiles[name] = next;
      config.profiles = profiles;
    });
  }

  /** The salt of identity digests, created with the first token the file caches. */
  async tokenKeySalt(): Promise<string> {
    const known = this.read().token_key_salt;
    if (known) return known;
    return this.startSaltWrite().written;
  }

  /**
   * The salt as this process expects it, at once: the file's, or while the file has none, the
   * one this process is writing (the write starts here). The file holds that one unless another
   * process wrote a salt first, which `tokenKeySalt()` tells: work that depends on the salt (the
   * slow digest of a password) can start with this one rather than wait for the write.
   */
  expectedTokenKeySalt(): string {
    return this.read().token_key_salt ?? this.startSaltWrite().salt;
  }

  /** One write for callers that ask at once (they would otherwise queue on the lock). */
  private startSaltWrite(): { salt: string; written: Promise<string> } {
    if (!this.saltWrite) {
      const salt = nodeCrypto().randomBytes(32).toString('base64url');
      const written = this.update((config) => {
        config.token_key_salt ??= salt;
      }).then(
        (file) => file.token_key_salt!,
        (err: unknown) => {
          this.saltWrite = undefined;
          throw err;
        },
      );
      // A failed write is reported to whoever awaits the salt; a run that never does is not ended by it.
      written.catch(() => undefined);
      this.saltWrite = { salt, written };
    }
    return this.saltWrite;
  }

  private load(): ConfigFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // No file yet (or no folder: a path through a file is just as absent).
      if (code === 'ENOENT' || code === 'ENOTDIR') return {};
      throw new ConfigFileError(this.file, `cannot be read (${code ?? (err as Error).message})`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ConfigFileError(this.file, `is not valid JSON (${(err as Error).message})`);
    }
    const problem = shapeProblem(data);
    if (problem) throw new ConfigFileError(this.file, problem);
    return data as ConfigFile;
  }

  /** Creates the 0700 folder when missing. */
  ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    try {
      chmodSync(this.dir, 0o700);
    } catch {
      // a folder of another owner (EDP_CONFIG_DIR pointing somewhere shared): leave its mode
    }
  }

  /**
   * Loads conf and makes its store, without waiting: a caller about to write calls this before a
   * request it awaits, so that the work is done while the process would otherwise wait on the
   * network. A failure here is met again, and reported, by the write itself.
   */
  prepareWrite(): void {
    this.conf ??= this.makeConf();
    this.conf.catch(() => undefined);
  }

  private async makeConf(): Promise<Conf<ConfigFile>> {
    const { default: ConfStore } = await import('conf');
    return new ConfStore<ConfigFile>({
      cwd: this.dir,
      configName: 'config',
      fileExtension: 'json',
      configFileMode: 0o600,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
      serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
    });
  }

  /**
   * Writes the file through conf (a temporary file renamed over the real one, mode 0600), under
   * this store's lock: conf validates nothing here (no schema), it writes the file as changed
   * under the lock. Loaded on the first write only: a run that only reads reads the file with a
   * plain read.
   */
  private async save(data: ConfigFile): Promise<void> {
    let conf: Conf<ConfigFile>;
    try {
      conf = await (this.conf ??= this.makeConf());
    } catch {
      // A store made ahead of time that failed is made again, and this time its error is reported.
      this.conf = this.makeConf();
      conf = await this.conf;
    }
    conf.store = data;
    syncDir(this.dir);
  }
}

/** The rename itself lands on disk only when the folder is synced (POSIX); elsewhere this is skipped. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here (Windows)
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fields of a profile and their kinds; any other field is kept as it is (a newer edp may add some). */
const PROFILE_FIELDS: Record<string, (v: unknown) => boolean> = {
  base_url: isString,
  username: isString,
  password: isString,
  session_id: isString,
  workspace: isString,
  poll_interval: isString,
  concurrency: (v) => v === 'auto' || (typeof v === 'number' && Number.isInteger(v) && v > 0),
};

/** Fields of a cached token and their kinds. */
const TOKEN_FIELDS: Record<string, (v: unknown) => boolean> = {
  token: isString,
  issued_at: Number.isFinite,
  last_used_at: Number.isFinite,
  base_url: isString,
  identity: isString,
  workspace_id: isString,
};

/**
 * What is wrong with the file's content, naming the field (`profiles.default.username is not a
 * string`); undefined when every field the tool reads has the kind it reads. Checked on every
 * read, so a hand-edited file is refused with its path rather than failing later in a command.
 */
function shapeProblem(data: unknown): string | undefined {
  if (!isObject(data)) return 'does not hold a JSON object';
  if (data.profiles !== undefined) {
    if (!isObject(data.profiles)) return 'has a "profiles" entry that is not an object';
    for (const [name, p] of Object.entries(data.profiles)) {
      if (!isObject(p)) return `has a profile "${name}" that is not an object`;
      for (const [field, ok] of Object.entries(PROFILE_FIELDS))
        if (p[field] !== undefined && !ok(p[field]))
          return `has profiles.${name}.${field} of the wrong kind (${kindOf(p[field])})`;
    }
  }
  if (data.token_key_salt !== undefined && !isString(data.token_key_salt))
    return `has token_key_salt of the wrong kind (${kindOf(data.token_key_salt)}; a string is expected)`;
  if (data.tokens !== undefined) {
    if (!isObject(data.tokens)) return 'has a "tokens" entry that is not an object';
    for (const [key, t] of Object.entries(data.tokens)) {
      if (!isObject(t)) return `has a cached token "${key}" that is not an object`;
      for (const [field, ok] of Object.entries(TOKEN_FIELDS))
        if (t[field] !== undefined && !ok(t[field]))
          return `has tokens["${key}"].${field} of the wrong kind (${kindOf(t[field])})`;
    }
  }
  return undefined;
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Earlier versions cached tokens inside each profile, keyed by workspace id only: such a token
 * cannot be told apart from one issued to another user or service, so it is never used, and
 * any write drops it.
 */
function dropLegacyTokens(config: ConfigFile): void {
  for (const p of Object.values(config.profiles ?? {})) delete (p as { tokens?: unknown }).tokens;
}
