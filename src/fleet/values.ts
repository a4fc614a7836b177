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

/** What a person, a plan or a saved plan sees in place of a secret value. */
export function secretText(s: EnvSecret): string {
  return `(from env ${s.names.join(', ')})`;
}

/** A value as it may be shown or written: every EnvSecret within replaced by its text. */
export function shownValue(v: unknown): unknown {
  if (isEnvSecret(v)) return secretText(v);
  if (Array.isArray(v)) return v.map(shownValue);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shownValue(x)]));
  return v;
}

/** A value as it is sent to the service: every EnvSecret within replaced by its value. */
export function sentValue(v: unknown): unknown {
  if (isEnvSecret(v)) return v.value;
  if (Array.isArray(v)) return v.map(sentValue);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sentValue(x)]));
  return v;
}
