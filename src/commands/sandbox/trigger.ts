import { EVENT_TYPES } from '../../contract/events.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { parseJson } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { VERSION } from '../../version.js';
import type { TriggerOptions } from './command.js';

/** `--data`: a JSON object, or a usage error naming the flag (nothing is sent). */
function dataOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = parseJson(text, { uniqueKeys: true });
  } catch (err) {
    throw new UsageError(`--data: not JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`--data must be a JSON object, such as '{"load_id": "42"}'`);
  return value as Record<string, unknown>;
}

export async function runTrigger(opts: TriggerOptions, ctx: Context): Promise<void> {
  const type = opts.args[0];
  // Checked here against the contract's list, before anything is sent.
  if (!EVENT_TYPES.includes(type)) {
    const near = didYouMean(type, EVENT_TYPES);
    throw new UsageError(
      `unknown event type "${type}"${near ? ` (${near})` : ''}; \`${ctx.hint('webhooks', 'event-types')}\` lists them`,
    );
  }
  const data = dataOf(opts.data);
  const ws = parseId(ctx.requireWorkspace(), '-w');
  const { SandboxControls } = await import('../../api/sandbox-controls.js');
  const controls = new SandboxControls({
    baseUrl: ctx.settings.baseUrl().value,
    timeoutMs: ctx.settings.timeout.value,
    signal: ctx.signal,
    userAgent: `edp/${VERSION}`,
    env: ctx.env,
    sleep: ctx.io.sleep,
    controlToken: ctx.settings.sandboxControlToken()?.value,
  });
  try {
    const answer = await controls.trigger({ event_type: type, workspace_id: Number(ws), data });
    if (ctx.output.machine) {
      ctx.output.json(answer);
      return;
    }
    if (answer.endpoints.length === 0) {
      ctx.output.warn(
        `${type} ${answer.event.id}: no active endpoint of workspace ${ws} is subscribed to it; nothing was sent`,
      );
      return;
    }
    for (const endpoint of answer.endpoints) {
      ctx.output.line(`${type} ${answer.event.id} → endpoint ${endpoint.id} ${endpoint.url}`);
    }
  } finally {
    await controls.close();
  }
}
