/**
 * node:crypto, loaded on first use: loading it costs ~3 ms of start-up, which the runs that need
 * no random bytes or digests (most reads) do not pay.
 */
export function nodeCrypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}
