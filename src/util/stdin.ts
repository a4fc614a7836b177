import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The largest input file read (fleet files, --file documents, settings): 16 MiB is thousands of
 * times a large fleet file, and refusing more keeps a wrong file from exhausting memory.
 */
export const MAX_INPUT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A file's text, or standard input for "-". An unreadable file, one over MAX_INPUT_FILE_BYTES,
 * or one that is not UTF-8 text is a usage error naming the flag: invalid bytes are never
 * turned into U+FFFD in titles that would then be created.
 */
export async function readInputFile(file: string, stdin: Readable, flag: string): Promise<string> {
  const bytes = file === '-' ? await readStream(stdin, flag) : await readFileCapped(file, flag);
  return decodeUtf8(bytes, file === '-' ? 'standard input' : file, flag);
}

const tooLarge = (flag: string, what: string) =>
  new UsageError(`${flag}: ${what} is larger than ${MAX_INPUT_FILE_BYTES / 1024 / 1024} MiB, the most edp reads`);

async function readStream(stream: Readable, flag: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_INPUT_FILE_BYTES) throw tooLarge(flag, 'standard input');
    chunks.push(b);
  }
  return Buffer.concat(chunks, size);
}

async function readFileCapped(file: string, flag: string): Promise<Buffer> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size > MAX_INPUT_FILE_BYTES) throw tooLarge(flag, file);
      // Read up to one byte past the limit: a file that grew meanwhile is still refused.
      const buf = Buffer.alloc(Math.min(size, MAX_INPUT_FILE_BYTES) + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buf, length, buf.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length === buf.length) {
          if (length > MAX_INPUT_FILE_BYTES) throw tooLarge(flag, file);
          break;
        }
      }
      return buf.subarray(0, length);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw unreadable(err, file, flag);
  }
}

/**
 * `readInputFile` of a file (never standard input), at once: for the files read where a run
 * cannot wait (a saved plan, the secrets file under its lock, the sandbox's state). `maxBytes`
 * false: no limit, for a file edp itself wrote and may have grown past it (the sandbox's state).
 */
export function readInputFileSync(file: string, flag: string, opts: { maxBytes?: false } = {}): string {
  const limit = opts.maxBytes === false ? Infinity : MAX_INPUT_FILE_BYTES;
  let bytes: Buffer;
  try {
    const fd = openSync(file, 'r');
    try {
      const { size } = fstatSync(fd);
      if (size > limit) throw tooLarge(flag, file);
      // As readFileCapped: one byte past what it says, so that a file that grew is read whole or refused.
      const chunks: Buffer[] = [];
      let length = 0;
      for (;;) {
        const chunk = Buffer.alloc(length === 0 ? Math.min(size, limit) + 1 : 64 * 1024);
        const read = readSync(fd, chunk, 0, chunk.length, null);
        if (read === 0) break;
        chunks.push(chunk.subarray(0, read));
        length += read;
        if (length > limit) throw tooLarge(flag, file);
      }
      bytes = Buffer.concat(chunks, length);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw unreadable(err, file, flag);
  }
  return decodeUtf8(bytes, file, flag);
}

/** A usage error naming the flag and the file, for a file that cannot be opened or read (or is too large). */
function unreadable(err: unknown, file: string, flag: string): UsageError {
  if (err instanceof UsageError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a folder'
          : (code ?? (err as Error).message);
  return new UsageError(`${flag}: cannot read ${file}: ${why}`);
}

/**
 * UTF-8 text, a leading byte order mark dropped, or a usage error naming the file, the line and
 * column and the byte offset of the first byte that is not UTF-8. Nothing is ever read with
 * U+FFFD in place of bytes it could not decode: a name made of it would be created, a secret
 * written back changed.
 */
export function decodeUtf8(bytes: Uint8Array, what: string, flag: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
      throw new UsageError(`${flag}: ${what} is UTF-16 text, not UTF-8; save it as UTF-8`);
    const at = Math.max(0, invalidUtf8At(bytes));
    const lineStart = bytes.lastIndexOf(0x0a, at - 1) + 1;
    let line = 1;
    for (let i = bytes.indexOf(0x0a); i !== -1 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
    // Characters, not bytes, before it on its line: what an editor shows as the column.
    const column = [...new TextDecoder('utf-8').decode(bytes.subarray(lineStart, at))].length + 1;
    const byte = bytes[at]!.toString(16).toUpperCase().padStart(2, '0');
    throw new UsageError(
      `${flag}: ${what} is not UTF-8 text (the byte 0x${byte} at line ${line}, column ${column}, byte offset ${at}); save it as UTF-8`,
    );
  }
}

/**
 * The offset of the first byte of the first sequence that is not well-formed UTF-8 (the Unicode
 * standard's table 3-7: no overlong forms, no surrogates such as CESU-8 writes, nothing past
 * U+10FFFF, no sequence cut short), or -1 when every byte is.
 */
export function invalidUtf8At(bytes: Uint8Array): number {
  const cont = (i: number, lo = 0x80, hi = 0xbf) => i < bytes.length && bytes[i]! >= lo && bytes[i]! <= hi;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    let length = 0;
    if (b < 0x80) length = 1;
    else if (b >= 0xc2 && b <= 0xdf) length = cont(i + 1) ? 2 : 0;
    else if (b >= 0xe0 && b <= 0xef) {
      const [lo, hi] = b === 0xe0 ? [0xa0, 0xbf] : b === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
      length = cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
    } else if (b >= 0xf0 && b <= 0xf4) {
      const [lo, hi] = b === 0xf0 ? [0x90, 0xbf] : b === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
      length = cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    if (length === 0) return i;
    i += length;
  }
  return -1;
}
