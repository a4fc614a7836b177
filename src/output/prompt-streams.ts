import type { IO } from './io.js';

/** Where the prompts read and write: stdin, and stderr, so that stdout stays data. */
export function promptContext(
  io: IO,
  signal: AbortSignal | undefined,
): { input: IO['stdin']; output: IO['stderr']; signal?: AbortSignal } {
  return { input: io.stdin, output: keepOpen(io.stderr), ...(signal ? { signal } : {}) };
}

/** The prompt library ends the stream it wrote to when it is done; stderr must stay open for what follows. */
function keepOpen<T extends object>(stream: T): T {
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'end') return () => target;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
