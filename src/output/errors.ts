import { errorDocument, type ErrorDocument } from './error-document.js';
import {
  ApiError,
  NetworkError,
  OutcomeUnknownError,
  UsageError,
  AuthRequiredError,
  ExitError,
  NotConfirmedError,
  hintOf,
  isPromptInterrupt,
  isSilent,
} from '../errors.js';
import { stringifyJson } from '../util/json.js';
import type { Output } from './output.js';
import { terminalSafe } from './terminal-text.js';
import { credentialsNextStep } from './next-steps.js';

interface ValidationField {
  field?: unknown;
  code?: unknown;
  message?: unknown;
}

/** `{error: {status, code, message, details, trace_id}}`, the machine form of any error. */
export function errorJson(err: unknown): ErrorDocument {
  if (err instanceof ApiError)
    return errorDocument({
      status: err.status,
      code: err.code ?? null,
      message: err.message,
      details: err.details,
      traceId: err.traceId,
    });
  if (err instanceof OutcomeUnknownError) {
    const inner = err.cause instanceof ApiError ? err.cause : undefined;
    return errorDocument({
      status: inner?.status,
      code: 'outcome_unknown',
      message: err.message,
      details: inner?.details,
      traceId: inner?.traceId,
    });
  }
  if (isPromptInterrupt(err)) return errorDocument({ code: 'cancelled', message: 'cancelled' });
  const code =
    err instanceof UsageError
      ? 'usage_error'
      : err instanceof NotConfirmedError
        ? 'not_confirmed'
        : err instanceof AuthRequiredError
          ? 'no_credentials'
          : err instanceof NetworkError
            ? 'network_error'
            : err instanceof ExitError
              ? err.outcome === 'outputClosed'
                ? 'output_closed'
                : 'command_failed'
              : 'unexpected_error';
  // A usage error may carry details of its own (a document's problems, each with its place).
  const own = err instanceof UsageError ? (err as { details?: unknown }).details : undefined;
  return errorDocument({ code, message: err instanceof Error ? err.message : String(err), details: own });
}

/** The next step for a service that cannot be reached, unless the error names its own (a 401's: next-steps.ts). */
const ADDRESS_HINT = 'check the service address: pass --base-url URL or set EDP_BASE_URL';

/**
 * A request that ran out of --timeout (the client's own timer; the value it had goes with the
 * cause): the service may well be there, only slower than the timeout allows.
 */
function timeoutHint(err: NetworkError): string | undefined {
  const cause = err.cause as { name?: unknown; timeoutMs?: unknown } | undefined;
  if (cause?.name !== 'TimeoutError') return undefined;
  const ms = typeof cause.timeoutMs === 'number' ? cause.timeoutMs : undefined;
  return `no answer came within ${ms === undefined ? '--timeout' : `--timeout ${flagDuration(ms)}`}; if the service is slow rather than unreachable, pass a longer --timeout (default 60s)`;
}

/** 1ms, 30s, 2m: a duration as the flag is written. */
function flagDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** The lines a person sees: status, code or detail, message, relevant details, trace id, and a hint. */
export function errorLines(err: unknown): string[] {
  const lines = baseLines(err);
  const hint =
    hintOf(err) ??
    (err instanceof ApiError && err.status === 401
      ? credentialsNextStep(true)
      : err instanceof NetworkError
        ? (timeoutHint(err) ?? ADDRESS_HINT)
        : undefined);
  if (hint) lines.push(`  hint: ${hint}`);
  return lines;
}

function baseLines(err: unknown): string[] {
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

/**
 * The one error format: `error: …` on stderr for a person (the first line names status and
 * code, the next ones details, request and trace id), or the JSON error document under
 * --json/--ndjson. A declined confirmation and Ctrl-C at a prompt are not faults: they print
 * `not confirmed; nothing was changed` and `cancelled`, without the label. An outcome the
 * command has already reported (a plan with changes, a fleet's failures) prints nothing.
 */
export function reportError(output: Output, err: unknown): void {
  const stderr = output.io.stderr;
  if (isSilent(err)) return;
  if (output.flags.jsonErrors ?? (output.flags.json || output.flags.ndjson)) {
    stderr.write(`${stringifyJson(errorJson(err))}\n`);
  } else if (isPromptInterrupt(err)) {
    stderr.write('cancelled\n');
  } else if (err instanceof NotConfirmedError) {
    stderr.write(`${terminalSafe(err.message)}\n`);
  } else {
    output.error('error:', errorLines(err));
  }
  if (output.flags.verbose && err instanceof Error && err.stack && !(err instanceof UsageError)) {
    stderr.write(`${output.err.dim(terminalSafe(err.stack))}\n`);
  }
}
