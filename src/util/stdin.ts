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
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'is a folder'
            : (code ?? (err as Error).message);
    throw new UsageError(`${flag}: cannot read ${file}: ${why}`);
  }
}

/** UTF-8 text (a leading byte order mark dropped), or a usage error naming the line of the first bad byte. */
function decodeUtf8(bytes: Buffer, what: string, flag: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const at = text.indexOf('\uFFFD');
    const line = text.slice(0, Math.max(0, at)).split('\n').length;
    throw new UsageError(`${flag}: ${what} is not UTF-8 text (an invalid byte on line ${line}); save it as UTF-8`);
  }
}
