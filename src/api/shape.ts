/**
 * What a successful answer of an operation must hold for the commands that read it: light checks
 * of the fields they use, no schema library on the read path. Unknown extra fields and unknown
 * enum values pass: the service may add them.
 *
 * - `'any'`: any answer, JSON or not (`edp api` prints what came).
 * - `'json'`: no body, or a JSON document (the default for writes: 201, 202, 204).
 * - `'list'`: a JSON array, or a page (an object whose `results` is an array).
 * - `'page'`: a page; a bare array is taken as one page too (some lists answer one).
 * - a list of field names: a JSON object holding each of them (not null). `[]` is any object.
 */
export type Expect = 'any' | 'json' | 'list' | 'page' | readonly string[];

/** The default for an operation that says nothing: reads answer an object, writes JSON or nothing. */
export function defaultExpect(method: string): Expect {
  return method === 'GET' ? [] : 'json';
}

export interface Answer {
  /** The body as text ('' when none came). */
  text: string;
  /** The parsed JSON, or undefined when the body is empty or not JSON. */
  data: unknown;
  /** Whether the body parsed as JSON. */
  json: boolean;
  contentType: string;
}

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/** What is wrong with the answer for `expect`, in words; undefined when it will do. */
export function shapeProblem(answer: Answer, expect: Expect): string | undefined {
  if (expect === 'any') return undefined;
  if (answer.text.length > 0 && !answer.json) {
    const kind = answer.contentType ? answer.contentType.split(';')[0]!.trim() : 'no content type';
    return /^\s*[[{]/.test(answer.text)
      ? 'the body is not valid JSON (cut short?)'
      : `the body is not JSON (${kind}); a proxy or login page may have answered instead of the service`;
  }
  if (expect === 'json') return undefined;
  const data = answer.data;
  if (answer.text.length === 0) return 'the body is empty';
  if (expect === 'list' || expect === 'page') {
    if (Array.isArray(data)) return undefined;
    if (data === null || typeof data !== 'object') return `expected a list, got ${describe(data)}`;
    const results = (data as { results?: unknown }).results;
    if (!Array.isArray(results))
      return results === undefined ? 'the page has no `results`' : `the page's \`results\` is ${describe(results)}`;
    const next = (data as { next?: unknown }).next;
    if (next !== undefined && next !== null && typeof next !== 'string')
      return `the page's \`next\` is ${describe(next)}`;
    const count = (data as { count?: unknown }).count;
    if (count !== undefined && count !== null && !(typeof count === 'number' && Number.isInteger(count) && count >= 0))
      return "the page's `count` is not a whole number";
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return `expected an object, got ${describe(data)}`;
  const missing = expect.filter((field) => (data as Record<string, unknown>)[field] == null);
  if (missing.length > 0)
    return `${missing.map((f) => `\`${f}\``).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`;
  return undefined;
}
