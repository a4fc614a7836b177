import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A file's text, or standard input for "-"; an unreadable file is a usage error naming the flag. */
export async function readInputFile(file: string, stdin: Readable, flag: string): Promise<string> {
  if (file === '-') return readAll(stdin);
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
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
