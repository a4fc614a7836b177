/**
 * Lines of work done concurrently, written in the order of the work: line `i` is written as soon
 * as every line before it has been, so a list reads in its own order while its items finish in any.
 */
export function inOrder(count: number, write: (line: string) => void): (i: number, line: string) => void {
  const lines: Array<string | undefined> = [];
  let written = 0;
  return (i, line) => {
    lines[i] = line;
    for (; written < count && lines[written] !== undefined; written++) write(lines[written]!);
  };
}
