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

/** The service's address as messages name it: scheme, host and port, never credentials or a path. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** The path requests go under: '' for `http://host`, `/edp` for `http://host/edp/` (a service behind a proxy's path). */
export function basePathOf(base: URL): string {
  return base.pathname.replace(/\/+$/, '');
}

/**
 * A path as a URL parser reads it, as it will be sent: dot segments (`.`, `..`, `%2e`)
 * resolved, nothing else decoded, the query kept. For a path that starts with one `/`.
 */
export function normalisedPath(target: string): string {
  const url = new URL(target, 'http://service.invalid');
  return url.pathname + url.search;
}

/**
 * Why a path, exactly as it goes on the request line, would not reach the service mounted at
 * `prefix` (from basePathOf); undefined when it would. It is read twice: as it is, and as a
 * proxy or framework in front of the service may read it, `%2F`, `%5C` and `%2E` decoded and a
 * backslash taken for a slash, dot segments then resolved. Either reading must stay under the
 * prefix, and what follows the prefix must not start with `//`, which a URL parser reads as
 * another host.
 */
export function sentPathProblem(sent: string, prefix: string): string | undefined {
  const decode = (p: string) => p.replace(/%2f|%5c|\\/gi, '/').replace(/%2e/gi, '.');
  for (const [path, under] of [
    [sent, prefix],
    [decode(sent), decode(prefix)],
  ] as const) {
    if (path.startsWith('//')) return 'it names another host';
    const resolved = new URL(`http://service.invalid${path}`).pathname;
    if (resolved.startsWith('//')) return 'it names another host';
    if (under !== '' && resolved !== under && !resolved.startsWith(`${under}/`))
      return `it leaves ${prefix}, the path of the configured service`;
    if (resolved.slice(under.length).startsWith('//')) return 'it names another host';
  }
  return undefined;
}
