import { setAccountsExtraction, type AccountV3 } from '../../../api/accounts.js';
import type { Context } from '../../../context.js';
import { parseId } from '../../../util/validate.js';

/** Account ids given as separate words, comma-separated lists, or both; each once. */
function accountIds(words: string[]): string[] {
  const raw = words
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set(raw.map((v) => parseId(v, 'account id')))];
}

/** `accounts enable` and `accounts disable`: set the extraction flag of the accounts named. */
export async function setExtraction(
  ctx: Context,
  connection: string,
  words: string[],
  enabled: boolean,
): Promise<void> {
  const connectionId = parseId(connection, '--connection');
  const ids = accountIds(words);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const updated = await setAccountsExtraction(api, ws, connectionId, ids, enabled);
  if (!ctx.output.machine) {
    const n = updated.length;
    ctx.output.success(
      `${enabled ? 'Enabled' : 'Disabled'} extraction for ${n} account${n === 1 ? '' : 's'} of connection ${connectionId}`,
    );
  }
  await ctx.output.list(updated, [
    { header: 'ID', value: (a: AccountV3) => a.id },
    { header: 'TITLE', value: (a: AccountV3) => a.title },
    { header: 'ENABLED FOR EXTRACTION', value: (a: AccountV3) => a.enabled_for_embedded_extraction },
  ]);
}
