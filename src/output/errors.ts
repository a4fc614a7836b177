import { ApiError, NetworkError, OutcomeUnknownError, UsageError, AuthRequiredError, ExitError } from '../errors.js';
import { stringifyJson } from '../util/json.js';
import type { Output } from './output.js';
import { terminalSafe } from './terminal-text.js';

interface ValidationField {
  field?: unknown;
  code?: unknown;
  message?: unknown;
}

/** `{error: {status, code, message, details, trace_id}}`, the machine form of any error. */
export function errorJson(err: unknown): { error: Record<string, unknown> } {
  if (err instanceof ApiError) {
    return { error: { status: err.status, code: err.code ?? null, message: err.message, details: err.details, trace_id: err.traceId ?? null } };
  }
  if (err instanceof OutcomeUnknownError) {
    const inner = err.cause instanceof ApiError ? err.cause : undefined;
    return {
      error: { status: inner?.status ?? null, code: 'outcome_unknown', message: err.message, details: inner?.details ?? {}, trace_id: inner?.traceId ?? null },
    };
  }
  const code =
    err instanceof UsageError ? 'usage_error'
    : err instanceof AuthRequiredError ? 'no_credentials'
    : err instanceof NetworkError ? 'network_error'
    : err instanceof ExitError ? 'command_failed'
    : 'unexpected_error';
  return { error: { status: null, code, message: err instanceof Error ? err.message : String(err), details: {}, trace_id: null } };
}

/** The lines a person sees: status, code or detail, message, relevant details, trace id. */
export function errorLines(err: unknown): string[] {
  if (err instanceof ApiError) {
    const head = [`${err.status}`, err.code].filter(Boolean).join(' ');
    const lines = [`${head}: ${err.message}`];
    const details = { ...err.details };
    const fields = details.fields;
    if (Array.isArray(fields)) {
      delete details.fields;
      for (const f of fields as ValidationField[]) {
        const where = f.field === '' || f.field === undefined ? '(body)' : String(f.field);
        lines.push(`  ${where}: ${[f.code, f.message].filter(Boolean).join(': ')}`);
      }
    }
    for (const [k, v] of Object.entries(details)) {
      lines.push(`  ${k}: ${typeof v === 'string' ? v : stringifyJson(v)}`);
    }
    if (err.method && err.path) lines.push(`  request: ${err.method} ${err.path}`);
    if (err.traceId) lines.push(`  trace id: ${err.traceId}`);
    return lines;
  }
  if (err instanceof OutcomeUnknownError) {
    const lines = [err.message];
    if (err.traceId) lines.push(`  trace id: ${err.traceId}`);
    return lines;
  }
  if (err instanceof Error) return [err.message];
  return [String(err)];
}

export function reportError(output: Output, err: unknown): void {
  const stderr = output.io.stderr;
  if (output.flags.json || output.flags.ndjson) {
    stderr.write(`${stringifyJson(errorJson(err))}\n`);
  } else {
    output.error(err instanceof UsageError ? 'error:' : 'Error:', errorLines(err));
  }
  if (output.flags.verbose && err instanceof Error && err.stack && !(err instanceof UsageError)) {
    stderr.write(`${output.err.dim(terminalSafe(err.stack))}\n`);
  }
}
