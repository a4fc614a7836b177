/**
 * The JSON error document, the machine form of every error (`--json`, `--ndjson`, `--jq`), on
 * stderr: `{"error": {"status", "code", "message", "details", "trace_id"}}`. Built here only;
 * `status` and `trace_id` are null when no answer came, `details` is an object ({} when none).
 * Imports nothing, so that the entry can report a fault before anything else has loaded.
 */
export interface ErrorDocument {
  error: {
    status: number | null;
    code: string | null;
    message: string;
    details: Record<string, unknown>;
    trace_id: string | null;
  };
}

export function errorDocument(e: {
  code: string | null;
  message: string;
  status?: number | null | undefined;
  details?: unknown;
  traceId?: string | null | undefined;
}): ErrorDocument {
  const details = e.details;
  return {
    error: {
      status: e.status ?? null,
      code: e.code,
      message: e.message,
      details:
        details !== null && typeof details === 'object' && !Array.isArray(details)
          ? (details as Record<string, unknown>)
          : {},
      trace_id: e.traceId ?? null,
    },
  };
}
