/** Every item of a (possibly asynchronous) sequence, in order. */
export async function collect<T>(items: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
