import { nodeCrypto } from '../util/crypto.js';
import {
  closeSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { sleep } from '../util/sleep.js';

/**
 * A lock file beside the file it guards, git's `config.json.lock` pattern: whoever creates it
 * (O_CREAT|O_EXCL, atomic on local file systems) holds the lock; releasing deletes it. The file
 * names its holder (host, pid, a random nonce), so that a lock left by a process that died can
 * be recognised and broken at once, and any other lock once it is older than `staleMs`: holders
 * of these locks keep them for a file read and write, or for one token request.
 */
export interface FileLock {
  readonly path: string;
  /** Still ours? False once another process broke it as stale. */
  held(): boolean;
  release(): void;
}

export interface LockOptions {
  /** Give up waiting after this long. */
  waitMs: number;
  /** A lock older than this is taken to be left over by a process that died elsewhere. */
  staleMs: number;
  signal?: AbortSignal | undefined;
  /** Called between attempts while another process holds the lock; true stops waiting. */
  poll?: (() => boolean) | undefined;
}

/** Locks held for one read and write of a file: waiting this long for another process's write is generous. */
export const WRITE_LOCK_WAIT_MS = 15_000;
/**
 * A write lock older than this was left by a process that died (on another host: a local dead
 * holder is seen at once). Also the age past which a temporary file of such a write is left over.
 */
export const WRITE_LOCK_STALE_MS = 10_000;

const HOST = hostname();

/** Takes the lock, waiting at most `waitMs`; undefined when the wait ran out or `poll` said stop. */
export async function acquireLock(path: string, opts: LockOptions): Promise<FileLock | undefined> {
  const deadline = Date.now() + opts.waitMs;
  for (let round = 0; ; round++) {
    const lock = tryLock(path);
    if (lock) return lock;
    breakStaleLock(path, opts.staleMs);
    if (opts.poll?.()) return undefined;
    if (Date.now() >= deadline) return undefined;
    // Short, jittered waits: holders keep the lock for milliseconds, and many processes may wait.
    await sleep(
      Math.min(5 + Math.random() * 10 * Math.min(round + 1, 5), Math.max(1, deadline - Date.now())),
      opts.signal,
    );
  }
}

/** Who holds the lock, for messages: "pid 123 on host" or undefined. */
export function lockHolder(path: string): string | undefined {
  const owner = readOwner(path);
  return owner ? `pid ${owner.pid} on ${owner.host}` : undefined;
}

function tryLock(path: string): FileLock | undefined {
  const content = `${process.pid} ${HOST} ${nodeCrypto().randomBytes(8).toString('hex')}\n`;
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  const held = () => {
    try {
      return readFileSync(path, 'utf8') === content;
    } catch {
      return false;
    }
  };
  let released = false;
  return {
    path,
    held,
    release() {
      if (released) return;
      released = true;
      if (!held()) return;
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}

interface Owner {
  pid: number;
  host: string;
  content: string;
}

function readOwner(path: string): Owner | undefined {
  try {
    const content = readFileSync(path, 'utf8');
    const [pid, host] = content.split(' ');
    return { pid: Number(pid), host: host ?? '', content };
  } catch {
    return undefined;
  }
}

function processIsGone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes the lock at `path` when it is left over: its holder died on this host, or it is older
 * than `staleMs`. Safe while other processes take, release or break the same lock.
 */
export function breakStaleLock(path: string, staleMs: number): void {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return; // released meanwhile
  }
  const owner = readOwner(path);
  // A lock being written has no content yet: judge it by age only.
  const deadHolder = !!owner && owner.host === HOST && owner.pid !== process.pid && processIsGone(owner.pid);
  if (!deadHolder && Date.now() - mtimeMs < staleMs) return;
  // Move the lock aside rather than deleting it: a rename is atomic, so of several processes
  // that judged the same lock stale exactly one removes it. If what was moved is not the lock
  // that was judged (its holder released it and another process took a new one meanwhile),
  // it is put back, unless yet another lock exists by then (link() never overwrites).
  const aside = `${path}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  const moved = readOwner(aside);
  if (owner && moved && moved.content !== owner.content) {
    try {
      linkSync(aside, path);
    } catch {
      // a newer lock exists: the moved one's holder will see it lost the lock (held() is false)
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // nothing to clean
  }
}

/** The files a folder's writes make, by name: their temporary files, and locks other than the caller's. */
export interface LeftoverNames {
  temporary(name: string): boolean;
  lock?: ((name: string) => boolean) | undefined;
  /** a lock of those older than this is left over (one whose holder died on this host is, at once) */
  lockStaleMs?: number | undefined;
}

/**
 * Removes the files of `dir` that interrupted writes (kill -9, a crash) left behind, for a
 * caller that holds the lock of the writes that make them. A temporary file (not yet renamed
 * over its file) is left over once older than `WRITE_LOCK_STALE_MS`: a younger one may be the
 * work of a live writer whose lock was taken from it as stale. A lock is left over as
 * `breakStaleLock` judges. What cannot be removed stays, for a later write.
 */
export function removeLeftovers(dir: string, names: LeftoverNames): void {
  let found: string[];
  try {
    found = readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of found) {
    const path = join(dir, name);
    if (names.lock?.(name)) breakStaleLock(path, names.lockStaleMs ?? WRITE_LOCK_STALE_MS);
    else if (names.temporary(name)) {
      try {
        if (now - statSync(path).mtimeMs >= WRITE_LOCK_STALE_MS) unlinkSync(path);
      } catch {
        // gone meanwhile, or not ours to remove
      }
    }
  }
}
