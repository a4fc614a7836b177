import { LosslessNumber, scanJson } from '../util/json.js';
import { fieldPath } from '../util/field-path.js';
import { validationError } from './errors.js';

/**
 * Limits on request bodies. The contract leaves some fields free-form (custom filters,
 * additional parameters, connection parameters, settings); without limits such a field could
 * hold a value too deep to save or to answer with. The contract's own fields nest a few levels,
 * so the limits only ever bind on free-form ones.
 */
export const MAX_BODY_DEPTH = 32;
export const MAX_BODY_VALUES = 100_000;

type Path = Array<string | number>;

/**
 * Refuses a body nested more than MAX_BODY_DEPTH objects or arrays deep, or holding more than
 * MAX_BODY_VALUES values, with `validation_error` naming the field: for depth, the value that
 * goes one level too deep; for size, the innermost field that alone holds too many values
 * (an empty path, the body as a whole, when none does).
 */
export function checkBodyLimits(body: unknown): void {
  let oversized: Path | undefined;
  const path: Path = [];
  const count = (value: unknown, depth: number): number => {
    if (value === null || typeof value !== 'object' || value instanceof LosslessNumber) return 1;
    if (depth > MAX_BODY_DEPTH) {
      throw validationError([
        { field: fieldPath(path), code: 'max_depth', message: `Nested more than ${MAX_BODY_DEPTH} levels deep.` },
      ]);
    }
    let n = 1;
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value);
    for (const [key, child] of entries) {
      path.push(key);
      n += count(child, depth + 1);
      path.pop();
    }
    if (n > MAX_BODY_VALUES && !oversized) oversized = [...path];
    return n;
  };
  count(body, 1);
  if (oversized) {
    throw validationError([
      { field: fieldPath(oversized), code: 'max_size', message: `Holds more than ${MAX_BODY_VALUES} values.` },
    ]);
  }
}

/**
 * The path of the first object or array that opens more than `max` levels deep in JSON `text`,
 * found in one pass over the text before it is parsed: a body nested thousands deep is refused
 * at the cost of reading it once, naming the same field checkBodyLimits would. Undefined when
 * the text nests no deeper (it may still be malformed: the parser says so).
 */
export function tooDeepPath(text: string, max = MAX_BODY_DEPTH): Path | undefined {
  if (text.length <= max) return undefined;
  const found = scanJson(text, { maxDepth: max });
  return found?.path;
}

/** A body too deep for the JSON parser itself: the same refusal, for the body as a whole. */
export function tooDeepBody(path: Path = []) {
  return validationError([
    { field: fieldPath(path), code: 'max_depth', message: `Nested more than ${MAX_BODY_DEPTH} levels deep.` },
  ]);
}

/** A UTF-16 code unit of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Refuses a string (value or key) holding a lone surrogate, which only a `\ud800`-style escape
 * can put in a body that is valid UTF-8: it stands for no character, cannot be written as
 * UTF-8, and the service, which stores text, has nothing to store. `validation_error` names the
 * first such field (for a key, the object holding it, so that the answer does not repeat it).
 */
export function checkWellFormed(body: unknown): void {
  const path: Path = [];
  const refuse = (): never => {
    throw validationError([
      {
        field: fieldPath(path),
        code: 'invalid',
        message:
          'Holds a lone surrogate (an unpaired \\ud800-\\udfff escape), which is no character; send text as UTF-8.',
      },
    ]);
  };
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) refuse();
      return;
    }
    if (value === null || typeof value !== 'object' || value instanceof LosslessNumber) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        path.push(i);
        walk(v);
        path.pop();
      });
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) refuse();
      path.push(key);
      walk(child);
      path.pop();
    }
  };
  walk(body);
}
