import { idText } from '../../../util/json.js';
import { durationText } from '../../../util/poll.js';
import type { FreshnessRow } from './rows.js';

export const FORMATS = ['text', 'markdown', 'csv', 'json'] as const;
export type Format = (typeof FORMATS)[number];

export function ageText(seconds: number | null): string {
  return seconds === null ? 'never' : durationText(seconds * 1000);
}

/**
 * `2026-11-29 06:10 UTC`: the time itself, not how long ago this machine's clock says it was
 * (a table shows a bare timestamp so); the AGE beside it is by the service's clock.
 */
export function utcText(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function extractionText(r: FreshnessRow): string {
  return r.extraction_delivered === null ? 'no build' : r.extraction_delivered ? 'delivered' : 'nothing delivered';
}

export function verdictText(r: FreshnessRow): string {
  return r.error !== null ? 'error' : r.stale ? 'stale' : 'fresh';
}

const CSV_HEADER = [
  'workspace_id',
  'data_source',
  'recipe_ids',
  'last_build_at',
  'build_age_seconds',
  'extraction_delivered',
  'not_delivered_accounts',
  'degraded',
  'stale',
  'error',
];

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A header row, then one record per row, each line ended by CRLF (RFC 4180, 2.1). */
export function freshnessCsv(rows: FreshnessRow[]): string {
  const records = rows.map((r) => [
    idText(r.workspace_id),
    r.data_source ?? '',
    r.recipe_ids.map(idText).join(' '),
    r.last_build_at ?? '',
    r.build_age_seconds === null ? '' : String(r.build_age_seconds),
    r.extraction_delivered === null ? '' : String(r.extraction_delivered),
    r.not_delivered_accounts.map(idText).join(' '),
    String(r.degraded),
    String(r.stale),
    r.error ?? '',
  ]);
  return [CSV_HEADER, ...records].map((fields) => `${fields.map(csvField).join(',')}\r\n`).join('');
}

/** Text inside a Markdown table cell: no line breaks, no stray pipes. */
const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

/** A table to paste into a ticket: a summary line, then one row per workspace and data source. */
export function freshnessMarkdown(rows: FreshnessRow[], maxAgeText: string): string {
  const stale = rows.filter((r) => r.stale).length;
  const out = [
    '### edp freshness',
    '',
    rows.length === 0
      ? 'No automated recipe in these workspaces.'
      : stale === 0
        ? `**All fresh**: every part within ${cell(maxAgeText)}.`
        : `**${stale} of ${rows.length} row(s) stale or unread** (max age ${cell(maxAgeText)}).`,
  ];
  if (rows.length > 0) {
    out.push(
      '',
      '| workspace | data source | recipes | last build | age | extraction | not delivered | degraded | status |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of rows)
      out.push(
        `| ${[
          idText(r.workspace_id),
          r.data_source ?? '',
          r.recipe_ids.map(idText).join(', '),
          r.last_build_at ?? 'never',
          r.error === null ? ageText(r.build_age_seconds) : '',
          r.error === null ? extractionText(r) : '',
          r.not_delivered_accounts.map(idText).join(', '),
          r.degraded ? 'yes' : 'no',
          r.error === null ? verdictText(r) : `error: ${r.error}`,
        ]
          .map(cell)
          .join(' | ')} |`,
      );
  }
  return `${out.join('\n')}\n`;
}
