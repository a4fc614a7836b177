/**
 * Builds a request path with every interpolated value percent-encoded, so that an id or a
 * data source name can never change the shape of the path. The literal parts, trailing slash
 * included, are exactly the contract's.
 */
export function path(strings: TemplateStringsArray, ...values: Array<string | number | bigint>): string {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += encodeURIComponent(String(v)) + strings[i + 1]!;
  });
  return out;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(p: string, query: Query | undefined): string {
  if (!query) return p;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    params.append(k, String(v));
  }
  const qs = params.toString();
  if (!qs) return p;
  return p + (p.includes('?') ? '&' : '?') + qs;
}

/**
 * Whether a request path would reach another host: `//host` and `/\host` are read by URL
 * parsers as protocol-relative, and `/%5Chost` becomes `/\host` once a proxy decodes it.
 */
export function namesAnotherHost(target: string): boolean {
  return /^\/[\\/]|^\/%5c|\\/i.test(target);
}
