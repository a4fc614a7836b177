/**
 * A field path as the contract writes them: `connections[0].accounts`,
 * `connections[1].accounts[2].id` (dot for keys, brackets for positions).
 */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
