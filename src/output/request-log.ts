import type { RequestLogEntry } from '../api/client.js';
import type { Output } from './output.js';

const SECRET_PARAMS = /([?&](?:token|password|secret|code|session|key)=)[^&]*/gi;

/** One stderr line per request for --verbose: method, path, status, ms, trace id, the proxy. Secrets redacted. */
export function redactPath(path: string): string {
  return path.replace(SECRET_PARAMS, '$1***');
}

export function logRequest(output: Output, e: RequestLogEntry): void {
  const trace = e.traceId ? ` trace=${e.traceId}` : '';
  const note = e.note ? ` (${e.note})` : '';
  const attempt = e.attempt > 1 ? ` attempt=${e.attempt}` : '';
  // The proxy as scheme://host:port: its credentials never leave the ProxyAgent.
  const via = e.via ? ` via=${e.via}` : '';
  output.debug(`${e.method} ${redactPath(e.path)} ${e.status} ${e.ms}ms${trace}${attempt}${via}${note}`);
}
