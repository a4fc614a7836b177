import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FLEET_SCHEMA_URL } from '../../../fleet/schema-id.js';

/**
 * The file `export --output` writes starts with a header holding the digest of what follows,
 * so that a later export knows the file is its own and unchanged, and replaces it; a file
 * edited since, or not written by export, is replaced only with --force (docs/guide.md, Fleet
 * as code). The header is YAML comments, which plan and apply read past: the digest's line, and the
 * line that names the fleet file's JSON Schema to editors (yaml-language-server), docs/fleet.schema.json
 * by its address.
 */

const HEADER = /^# edp export, sha256:([0-9a-f]{16})\b[^\n]*\n(?:# yaml-language-server: [^\n]*\n)?/;

const digest = (body: string) => createHash('sha256').update(body).digest('hex').slice(0, 16);

/** The YAML text with its header. */
export function withHeader(body: string): string {
  return `# edp export, sha256:${digest(body)}: a later export replaces this file while it is unchanged, edits only with --force\n# yaml-language-server: $schema=${FLEET_SCHEMA_URL}\n${body}`;
}

/**
 * Why `path` may not be replaced without --force, or undefined when it may: it is missing or
 * empty, or an export wrote it and it is unchanged since. `json`: the export is JSON, which has
 * no comment to hold a header.
 */
export function replaceRefusal(path: string, json: boolean): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  if (text.trim() === '') return undefined;
  const header = HEADER.exec(text);
  const body = header ? text.slice(header[0].length) : text;
  if (header && digest(body) === header[1]) return undefined;
  const how = 'pass --force to replace it, or --output another file';
  if (hasComments(body)) return `${path} holds comments, which the export cannot keep: ${how}`;
  if (header) return `${path} was edited since \`edp export\` wrote it, and the export would lose the edits: ${how}`;
  return json
    ? `${path} exists, and a JSON export has no header to tell a file it wrote from one edited since: ${how}`
    : `${path} was not written by \`edp export\` (it has no export header), so it may hold edits the export would lose: ${how}`;
}

/** A YAML comment: `#` at the start of a line or after a space (the export writes none but its header). */
function hasComments(text: string): boolean {
  return /(^|\s)#/m.test(text);
}
