import type { ChalkInstance } from 'chalk';
import type { Recipe, RecipeTemplate } from '../../../api/recipes.js';
import type { Column, Output } from '../../../output/output.js';
import { idText, stringifyJson } from '../../../util/json.js';
import { hasNotDelivered, rebuildLine, sourceEntryLines, type AccountNames } from './not-delivered.js';
import { errorText, stateText } from '../../../output/recipe-text.js';

/** How recipes look to a person. States, codes and reasons the tool does not know are shown as they come. */

export function styleState(text: string, c: ChalkInstance): string {
  if (text.startsWith('ready_to_work')) return text.includes('degraded') ? c.yellow(text) : c.green(text);
  if (text === 'failed') return c.red(text);
  if (text === 'extracting_data' || text === 'building_dependencies') return c.cyan(text);
  return text;
}

export const recipeColumns: Array<Column<Recipe>> = [
  { header: 'RECIPE ID', value: (r) => idText(r.recipe_id) },
  { header: 'TITLE', value: (r) => r.title },
  { header: 'TEMPLATE', value: (r) => idText(r.template_id) },
  {
    header: 'STATE',
    keep: true,
    value: (r) => stateText(r),
    raw: (r) => r.state,
    style: (t, _r, c) => styleState(t, c),
  },
  { header: 'LAST BUILD', value: (r) => r.last_build_at },
  { header: 'DATA TABLE', value: (r) => idText(r.datatable_id) },
  { header: 'ERROR', value: (r) => r.error?.code ?? '' },
];

export const templateColumns: Array<Column<RecipeTemplate>> = [
  { header: 'ID', value: (t) => idText(t.id) },
  { header: 'TITLE', value: (t) => t.title },
  { header: 'BUILD MODE', value: (t) => t.build_mode },
  { header: 'ORIGIN', value: (t) => t.origin },
  { header: 'DATA SOURCES', value: (t) => (t.data_sources ?? []).join(', ') },
  { header: 'CATEGORIES', value: (t) => (t.categories ?? []).join(', ') },
];

function rows(output: Output, pairs: Array<[string, string]>): void {
  output.details(pairs);
}

/**
 * A readable view of one recipe: state, error with code, stage and message, and per-source
 * coverage. With `explain`, each account left out is named, its reason explained, and the next
 * command given.
 */
export function showRecipe(output: Output, r: Recipe, explain?: { names: AccountNames; ws: string }): void {
  if (!output.stdoutIsTTY) {
    output.plainObject(r);
    // Piped, stdout stays the recipe's values; the explanation is a note for the person.
    if (explain && hasNotDelivered(r)) {
      for (const s of r.sources ?? []) {
        const lines = sourceEntryLines(r, s, explain.names, explain.ws);
        if (lines.length === 0) continue;
        output.info(
          `${s.data_source}: ${s.status}, ${s.not_delivered_count ?? s.not_delivered?.length ?? 0} not delivered`,
        );
        for (const line of lines) output.info(line.text);
      }
      output.info(rebuildLine(r, explain.ws));
    }
    return;
  }
  const c = output.out;
  const pairs: Array<[string, string]> = [
    ['recipe', `${idText(r.recipe_id)}${r.title ? `  "${r.title}"` : ''}`],
    ['template', idText(r.template_id)],
    ['state', styleState(stateText(r), c)],
    ['last build', r.last_build_at ?? 'never'],
    ['data table', idText(r.datatable_id)],
    ['data sources', (r.data_sources ?? []).join(', ') || '(not configured)'],
  ];
  for (const conn of r.connections ?? []) {
    pairs.push([
      `  ${conn.connection_data_source}`,
      `connection ${idText(conn.connection_id)}: ${conn.accounts.length} account(s): ${conn.accounts.map((a) => idText(a.id)).join(', ')}`,
    ]);
  }
  if (r.sync_from_date) pairs.push(['sync from', r.sync_from_date]);
  if (r.error) {
    pairs.push(['error', c.red(errorText(r.error))]);
    if (r.error.details && Object.keys(r.error.details).length > 0)
      pairs.push(['  details', stringifyJson(r.error.details)]);
  }
  if (r.not_delivered_reasons && r.not_delivered_reasons.length > 0)
    pairs.push(['not delivered', r.not_delivered_reasons.join(', ')]);
  rows(output, pairs);
  const sources = r.sources ?? [];
  if (sources.length === 0) return;
  output.line();
  for (const s of sources) {
    const count = s.not_delivered_count ?? s.not_delivered?.length ?? 0;
    const status = s.status === 'failed' ? c.red(s.status) : count > 0 ? c.yellow(s.status) : s.status;
    output.line(
      `${c.bold(s.data_source)}  ${status}${count > 0 ? `, ${count} not delivered` : ''}${s.error ? `  ${errorText(s.error)}` : ''}`,
    );
    for (const line of sourceEntryLines(r, s, explain?.names ?? new Map(), explain?.ws))
      if (line.command) output.line(line.text);
      else output.prose(line.text);
  }
  if (explain?.ws && hasNotDelivered(r)) {
    output.line();
    output.line(rebuildLine(r, explain.ws));
  }
}

export function showTemplate(output: Output, t: RecipeTemplate): void {
  if (!output.stdoutIsTTY) return output.plainObject(t);
  const pairs: Array<[string, string]> = [
    ['template', `${idText(t.id)}  "${t.title}"`],
    ['build mode', t.build_mode ?? ''],
    ['origin', t.origin ?? ''],
    ['categories', (t.categories ?? []).join(', ')],
    ['data sources', (t.data_sources ?? []).join(', ')],
  ];
  if (t.description) pairs.push(['description', t.description]);
  const columns = t.output_columns ?? [];
  pairs.push([
    'output columns',
    columns.length === 0
      ? '(none listed)'
      : columns.map((col) => (col.type ? `${col.name} (${col.type})` : col.name)).join(', '),
  ]);
  rows(output, pairs);
}
