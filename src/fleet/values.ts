import { closest } from '../util/did-you-mean.js';

/**
 * Values of a fleet file that come from outside it: `${var.NAME}` from a client's `vars`, and
 * `${env.NAME}` from the environment. A value that took anything from the environment is secret:
 * it is carried as an EnvSecret, whose `value` is sent to the service and never shown; plans (text,
 * Markdown, JSON) and saved plans show `(from env NAME)` in its place.
 */

export interface EnvSecret {
  readonly kind: 'env';
  /** the environment variables the value was made from, in the order they appear */
  readonly names: readonly string[];
  /** the value itself: sent, never shown or written */
  readonly value: string;
}

/** A string value of a fleet entry, once its `${…}` references are resolved. */
export type FleetValue = string | EnvSecret;

export function isEnvSecret(v: unknown): v is EnvSecret {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'env' && 'names' in v;
}

/** An object of keys and values, not a class's (a big id is a LosslessNumber, and stays one). */
const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** What a person, a plan or a saved plan sees in place of a secret value. */
export function secretText(s: EnvSecret): string {
  return `(from env ${s.names.join(', ')})`;
}

/** A value as it may be shown or written: every EnvSecret within replaced by its text. */
export function shownValue(v: unknown): unknown {
  if (isEnvSecret(v)) return secretText(v);
  if (Array.isArray(v)) return v.map(shownValue);
  if (isPlain(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shownValue(x)]));
  return v;
}

/** A value as it is sent to the service: every EnvSecret within replaced by its value. */
export function sentValue(v: unknown): unknown {
  if (isEnvSecret(v)) return v.value;
  if (Array.isArray(v)) return v.map(sentValue);
  if (isPlain(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sentValue(x)]));
  return v;
}

// ---------------------------------------------------------------- resolving references

/** Where a value's references come from in one workspace: its client's `vars`, and the environment. */
export interface ValueScope {
  /** the vars of the workspace's client; undefined when the workspace is no client's */
  vars: Readonly<Record<string, string>> | undefined;
  /** who the vars are (`client "Acme Retail"`, `workspace 103`), for messages */
  owner: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** A reference that cannot be resolved, at its field path within the value given. */
export interface ValueProblem {
  path: Array<string | number>;
  message: string;
  /** the nearest known name */
  suggestion?: string | null | undefined;
  /** the reference as written (`${var.bucket}`), to find it in the document */
  ref?: string | undefined;
}

/** A reference in a string: `${var.NAME}`, `${env.NAME}`; `$${` is a literal `${`. */
const REFERENCE = /\$\$\{|\$\{([^}]*)\}?/g;
const NAME = /^(var|env)\.([A-Za-z_][A-Za-z0-9_]*)$/;

export interface Reference {
  kind: 'var' | 'env';
  name: string;
}

/** The references of one string, or the text of what is not one (`${foo}`, an unclosed `${`). */
export function referencesOf(s: string): { refs: Reference[]; malformed: string[] } {
  const refs: Reference[] = [];
  const malformed: string[] = [];
  for (const m of s.matchAll(REFERENCE)) {
    if (m[0] === '$${') continue;
    const ref = m[0].endsWith('}') ? NAME.exec(m[1]!) : null;
    if (ref) refs.push({ kind: ref[1] as 'var' | 'env', name: ref[2]! });
    else malformed.push(m[0]);
  }
  return { refs, malformed };
}

/** Every string of a value, with its field path (objects' keys are not values). */
export function stringsOf(
  v: unknown,
  path: Array<string | number> = [],
): Array<{ path: Array<string | number>; s: string }> {
  if (typeof v === 'string') return [{ path, s: v }];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringsOf(x, [...path, i]));
  if (typeof v === 'object' && v !== null && !isEnvSecret(v))
    return Object.entries(v).flatMap(([k, x]) => stringsOf(x, [...path, k]));
  return [];
}

export const MALFORMED_REFERENCE = 'is not a reference: write ${var.NAME} or ${env.NAME} (and $${ for a literal ${)';

/**
 * A value with its references resolved in one workspace: each string that took anything from
 * the environment becomes an EnvSecret, other strings stay strings. Every reference that cannot
 * be resolved is a problem at its path; the value is then not to be used.
 */
export function resolveValues<T>(value: T, scope: ValueScope): { value: T; problems: ValueProblem[] } {
  const problems: ValueProblem[] = [];
  const walk = (v: unknown, path: Array<string | number>): unknown => {
    if (typeof v === 'string') return resolveString(v, scope, path, problems);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (isPlain(v) && !isEnvSecret(v))
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    return v;
  };
  return { value: walk(value, []) as T, problems };
}

function resolveString(
  s: string,
  scope: ValueScope,
  path: Array<string | number>,
  problems: ValueProblem[],
): FleetValue {
  if (!s.includes('$')) return s;
  const names: string[] = [];
  let failed = false;
  const value = s.replace(REFERENCE, (whole: string, inner: string | undefined) => {
    if (whole === '$${') return '${';
    const ref = whole.endsWith('}') ? NAME.exec(inner ?? '') : null;
    if (!ref) {
      failed = true;
      problems.push({ path, message: `${whole} ${MALFORMED_REFERENCE}`, ref: whole });
      return whole;
    }
    const [, kind, name] = ref as unknown as [string, 'var' | 'env', string];
    if (kind === 'env') {
      const v = scope.env[name];
      if (v === undefined) {
        failed = true;
        problems.push({ path, message: `\${env.${name}}: ${name} is not set in the environment`, ref: whole });
        return whole;
      }
      if (!names.includes(name)) names.push(name);
      return v;
    }
    const v = scope.vars?.[name];
    if (v === undefined) {
      failed = true;
      const known = Object.keys(scope.vars ?? {});
      problems.push({
        path,
        message: scope.vars
          ? `\${var.${name}}: ${scope.owner} has no var ${name}${known.length ? ` (it has ${known.join(', ')})` : ''}`
          : `\${var.${name}}: ${scope.owner} is no client's, so it has no vars; add it to clients: with vars.${name}`,
        suggestion: closest(name, known)[0] ?? null,
        ref: whole,
      });
      return whole;
    }
    return v;
  });
  if (failed || names.length === 0) return value;
  return { kind: 'env', names, value };
}

/** Every EnvSecret within a value. */
export function secretsIn(v: unknown, out: EnvSecret[] = []): EnvSecret[] {
  if (isEnvSecret(v)) out.push(v);
  else if (Array.isArray(v)) for (const x of v) secretsIn(x, out);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) secretsIn(x, out);
  return out;
}

/**
 * What a planner that worked with what is sent (plain strings) planned, with each secret's
 * value, wherever a string holds it, replaced by its text (an empty value hides nothing).
 * EnvSecrets are left as they are: shownValue() shows them where the plan is shown or saved.
 */
export function hiddenIn(v: unknown, secrets: readonly EnvSecret[]): unknown {
  const longestFirst = [...secrets].filter((s) => s.value !== '').sort((a, b) => b.value.length - a.value.length);
  const walk = (x: unknown): unknown => {
    if (isEnvSecret(x)) return x;
    if (typeof x === 'string') {
      let s = x;
      for (const secret of longestFirst) s = s.split(secret.value).join(secretText(secret));
      return s;
    }
    if (Array.isArray(x)) return x.map(walk);
    if (isPlain(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return x;
  };
  return longestFirst.length === 0 ? v : walk(v);
}
