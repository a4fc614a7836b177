/**
 * What an answer the client cannot take as success says, read into one typed error: either error
 * envelope (v3.1's `{code, message, details}`, v3's `{detail}`), an HTML page, an empty body, a
 * redirect, or a 2xx answer whose shape the commands cannot read.
 */

import { ApiError } from '../errors.js';
import { stringifyJson } from '../util/json.js';

/** An answer as the client read it: its status, headers, body (JSON, text, or nothing) and trace id. */
export interface AnswerRead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: unknown;
  traceId: string | undefined;
}

/** A header's value; the first, when it was sent several times. */
export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A 2xx answer the commands cannot read: exit 1, naming the operation, the problem and the trace id. */
export function unexpectedResponse(method: string, target: string, res: AnswerRead, problem: string): ApiError {
  return new ApiError({
    status: res.status,
    code: 'unexpected_response',
    message: `unexpected answer to ${method} ${target} (${res.status}): ${problem}`,
    traceId: res.traceId,
    method,
    path: target,
    details: { problem },
    body: typeof res.data === 'string' ? textOfHtml(res.data) : res.data,
  });
}

/** Reads either error envelope, an HTML page or an empty body into one typed error. */
export function apiErrorFromResponse(method: string, target: string, res: AnswerRead): ApiError {
  const base = { status: res.status, traceId: res.traceId, method, path: target, body: res.data };
  if (res.status >= 300 && res.status < 400) {
    const location = header(res.headers, 'location');
    const canonical = location ? new URL(location, 'http://x').pathname : undefined;
    return new ApiError({
      ...base,
      code: 'redirect',
      message: `the service redirected ${method} ${target} to ${location ?? '(no location)'}; redirects are not followed${canonical ? ` (canonical path: ${canonical})` : ''}`,
      details: location ? { location } : {},
    });
  }
  const data = res.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const body = data as Record<string, unknown>;
    if (typeof body.code === 'string') {
      const details = body.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : {};
      return new ApiError({
        ...base,
        code: body.code,
        message: typeof body.message === 'string' ? body.message : body.code,
        details,
      });
    }
    // {detail: text} (one page spells it `details`); any other keys travel as details.
    const text =
      typeof body.detail === 'string' ? body.detail : typeof body.details === 'string' ? body.details : undefined;
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      if ((k === 'detail' || k === 'details') && typeof v === 'string') continue;
      rest[k] = v;
    }
    return new ApiError({ ...base, message: text ?? summarize(body), details: rest });
  }
  if (typeof data === 'string' && data.length > 0) {
    return new ApiError({ ...base, message: textOfHtml(data) });
  }
  return new ApiError({ ...base, message: statusText(res.status) });
}

function summarize(body: Record<string, unknown>): string {
  const first = Object.entries(body)[0];
  if (!first) return 'error';
  const [k, v] = first;
  return `${k}: ${Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : stringifyJson(v)}`;
}

/** Only the start of an error page is read for its message: the title or first words are there. */
const HTML_SCAN_LIMIT = 64 * 1024;

/**
 * A readable line from an HTML error page (v3 may answer with one): its title, else its text.
 * One pass with indexOf, no backtracking pattern: a hostile page (`<title<title…`, `<<<<…`)
 * costs as much as its length, and only its first 64 KiB are looked at.
 */
export function textOfHtml(html: string): string {
  const text = html.length > HTML_SCAN_LIMIT ? html.slice(0, HTML_SCAN_LIMIT) : html;
  const lower = text.toLowerCase();
  let inner: string | undefined;
  const open = lower.indexOf('<title');
  if (open >= 0) {
    const start = lower.indexOf('>', open);
    const end = start >= 0 ? lower.indexOf('</title>', start) : -1;
    if (end >= 0) inner = text.slice(start + 1, end);
  }
  const plain = collapse(stripTags(inner ?? dropBlocks(text, lower)));
  return plain.length > 200 ? `${plain.slice(0, 197)}...` : plain || 'error';
}

/** The text without `<script>…</script>` and `<style>…</style>` blocks. */
function dropBlocks(text: string, lower: string): string {
  let out = '';
  let at = 0;
  // Each position is found once and kept until passed, so the text is scanned a bounded number of times.
  let script = lower.indexOf('<script');
  let style = lower.indexOf('<style');
  for (;;) {
    if (script >= 0 && script < at) script = lower.indexOf('<script', at);
    if (style >= 0 && style < at) style = lower.indexOf('<style', at);
    const open = script < 0 ? style : style < 0 ? script : Math.min(script, style);
    if (open < 0) return out + text.slice(at);
    const closing = open === script ? '</script>' : '</style>';
    const close = lower.indexOf(closing, open);
    out += `${text.slice(at, open)} `;
    if (close < 0) return out;
    at = close + closing.length;
  }
}

/** Each `<…>` replaced by a space; a `<` that is never closed ends the text. */
function stripTags(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('<', at);
    if (open < 0) return out + text.slice(at);
    out += `${text.slice(at, open)} `;
    const close = text.indexOf('>', open);
    if (close < 0) return out;
    at = close + 1;
  }
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? `HTTP ${status}`;
}
