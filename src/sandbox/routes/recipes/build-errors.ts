import type { BuildError } from './model.js';

/**
 * Build error codes (docs/contract-rules.md, Build error codes: a namespace of its own): the fixed
 * public sentence, the stage where each arises and its default details. For `sql_*` codes the
 * message is the database's, with internal names and paths removed.
 */
const CATALOGUE: Record<string, { message: string; stage: string | null; details: () => Record<string, unknown> }> = {
  extractions_not_created: {
    message: 'The extractions this recipe needs could not be created.',
    stage: 'extraction',
    details: () => ({}),
  },
  no_data_delivered: { message: 'No extraction delivered data in time.', stage: 'extraction', details: () => ({}) },
  all_sources_failed: { message: 'Every data source of the recipe failed.', stage: 'extraction', details: () => ({}) },
  nothing_to_build: { message: 'The recipe has no steps to build.', stage: null, details: () => ({}) },
  view_name_taken: {
    message: 'Another recipe took the output table name during the build.',
    stage: 'final_build',
    details: () => ({}),
  },
  data_table_registration_failed: {
    message: 'The built table could not be registered.',
    stage: 'final_build',
    details: () => ({}),
  },
  build_already_running: { message: 'Another build held the lock.', stage: null, details: () => ({}) },
  sql_object_not_found: {
    message: 'column "spend_usd" does not exist',
    stage: 'transformation_build',
    details: () => ({ missing_column: 'spend_usd' }),
  },
  sql_type_mismatch: {
    message: 'column "spend" is of type numeric but expression is of type text',
    stage: 'transformation_build',
    details: () => ({ column: 'spend', source_type: 'text', target_type: 'numeric', mixed_types: ['text', 'numeric'] }),
  },
  sql_permission_denied: { message: 'permission denied for schema', stage: 'final_build', details: () => ({}) },
  sql_resource_limit: { message: 'query exceeded the time limit', stage: 'transformation_build', details: () => ({}) },
  sql_syntax_error: { message: 'syntax error at or near "FROM"', stage: 'transformation_build', details: () => ({}) },
  sql_error: { message: 'the database could not run the query', stage: 'transformation_build', details: () => ({}) },
  build_failed: { message: 'The build failed.', stage: null, details: () => ({}) },
};

export const BUILD_ERROR_CODES = Object.keys(CATALOGUE);

export function buildError(code: string, at: string, overrides: Partial<BuildError> = {}): BuildError {
  const entry = CATALOGUE[code] ?? CATALOGUE.build_failed!;
  return {
    code,
    message: overrides.message ?? entry.message,
    stage: overrides.stage !== undefined ? overrides.stage : entry.stage,
    data_source: overrides.data_source ?? null,
    occurred_at: at,
    details: overrides.details ?? entry.details(),
  };
}
