import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parsePositiveInt, parseUrl } from '../../util/validate.js';
import type { ListenOptions } from './command.js';
import { parseEventList } from './shared/endpoints.js';
import { startReceiver, type AcceptedDelivery, type DeliveryOutcome } from './shared/receiver.js';
import { REPLAY_WINDOW_MS, ReplayWindow, SeenFile } from './shared/replay-window.js';
import { durationText } from '../../util/poll.js';
import type { DeliveryForwarder } from '../../api/forwarder.js';

/** Where the signing secret may come from besides --secret (which other users can see in the process list). */
export const SECRET_ENV = 'EDP_WEBHOOK_SECRET';

/**
 * Hands one delivery on to --forward-to before the service gets its answer: the target's 2xx is
 * the acknowledgement, its refusal is passed back so that the service delivers again (docs/contract-rules.md,
 * Events rule 3), and an unreachable or silent target answers 502.
 */
export async function forwardDelivery(
  forwarder: DeliveryForwarder,
  delivery: AcceptedDelivery,
  note: (text: string) => void,
): Promise<DeliveryOutcome> {
  const what = `${delivery.type ?? 'an event'} ${delivery.id}`;
  const started = performance.now();
  const ms = () => `${Math.round(performance.now() - started)} ms`;
  try {
    const status = await forwarder.forward(delivery.body, delivery.headers);
    if (status >= 200 && status < 300) {
      note(`forwarded ${what}: ${status} in ${ms()}`);
      return { status, delivered: true };
    }
    // A redirect is not followed, and is no answer the service should act on.
    const passed = status >= 400 && status < 600 ? status : 502;
    note(
      `forwarding ${what} failed: the target answered ${status} in ${ms()}; answered ${passed}, so the service delivers it again`,
    );
    return { status: passed, delivered: false };
  } catch (err) {
    const why =
      (err as Error).name === 'TimeoutError' ? `no answer within ${forwarder.timeoutMs} ms` : (err as Error).message;
    note(`forwarding ${what} failed: ${why} (${ms()}); answered 502, so the service delivers it again`);
    return { status: 502, delivered: false };
  }
}

/**
 * The secrets of a file written by `edp apply --secrets-file`, with those given otherwise. The
 * file is read again when it changes, so a listener started before an apply serves the
 * endpoints the apply creates (and verifies) while it runs.
 */
async function secretsFrom(path: string, given: string[], ctx: Context): Promise<() => readonly string[]> {
  const { statSync } = await import('node:fs');
  const { readSecretsFile } = await import('../../fleet/secrets-file.js');
  let stamp = '';
  let current: readonly string[] = given;
  const load = () => {
    let now: string;
    try {
      const st = statSync(path);
      now = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      now = 'absent';
    }
    if (now === stamp) return current;
    stamp = now;
    if (now === 'absent') current = given;
    else
      try {
        const entries = readSecretsFile(path);
        current = [...given, ...entries.map((e) => e.secret)];
        ctx.output.info(`--secrets-file: ${entries.length} endpoint secret(s) from ${path}`);
      } catch (err) {
        // A file being replaced is read at the next request; what was read before still holds.
        ctx.output.warn((err as Error).message);
        stamp = '';
      }
    return current;
  };
  load();
  return load;
}

function waitForStop(signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const stop = () => {
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    signal?.addEventListener('abort', stop, { once: true });
    process.once('SIGTERM', stop);
  });
}

/**
 * `edp webhooks listen`: a local receiver. Each accepted event is one NDJSON line
 * on stdout; notes and the address go to stderr. Needs no credentials for the service.
 */
export async function runListen(opts: ListenOptions, ctx: Context): Promise<void> {
  const given = [...(opts.secret ?? []), ...(ctx.env[SECRET_ENV] ? [ctx.env[SECRET_ENV]] : [])];
  if (given.length === 0 && opts.secretsFile === undefined) {
    throw new UsageError(
      `a signing secret is needed: pass --secret S (once per endpoint), set ${SECRET_ENV}, or --secrets-file FILE written by \`edp apply --secrets-file\` (webhooks create and rotate-secret show an endpoint's secret)`,
    );
  }
  const secrets = opts.secretsFile === undefined ? () => given : await secretsFrom(opts.secretsFile, given, ctx);
  const port = parsePositiveInt(opts.port, '--port', { min: 0, max: 65535 });
  const events = opts.events === undefined ? undefined : new Set(parseEventList(opts.events, '--events'));
  const forwardTo = opts.forwardTo === undefined ? undefined : parseUrl(opts.forwardTo, '--forward-to');

  // With a secrets file, the events handed on are kept beside it, so a restart forgets none.
  const window = new ReplayWindow();
  const seen =
    opts.secretsFile === undefined
      ? undefined
      : SeenFile.open(`${opts.secretsFile}.seen`, window, (text) => ctx.output.warn(text));

  const { DeliveryForwarder } = await import('../../api/forwarder.js');
  const forwarder = forwardTo ? new DeliveryForwarder(forwardTo) : undefined;
  const pending = new Set<Promise<unknown>>();
  const out = ctx.output;
  // Stdout is exact machine output (one event per line, as received), never rewritten for a terminal.
  const print = (line: string) => out.write(`${line}\n`);
  let receiver;
  try {
    receiver = await startReceiver({
      secrets,
      window,
      host: opts.host,
      port,
      events,
      onEvent: (delivery): DeliveryOutcome | Promise<DeliveryOutcome> => {
        if (!forwarder) {
          print(delivery.line);
          return { status: 200, delivered: true };
        }
        const p = forwardDelivery(forwarder, delivery, (text) => out.info(text)).then((o) => {
          // Printed once handed on, so a redelivery after a failed forward is not printed twice.
          if (o.delivered) print(delivery.line);
          return o;
        });
        pending.add(p);
        void p.finally(() => pending.delete(p));
        return p;
      },
      onNote: (kind, text) => {
        if (kind === 'refused') out.warn(text);
        else if (kind === 'filtered') out.debug(text);
        else out.info(text);
      },
    });
  } catch (err) {
    seen?.close();
    await forwarder?.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`--port ${port} is already in use on ${opts.host}; pick another port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`--host ${opts.host} is not an address of this machine`);
    throw err;
  }
  out.info(`Listening on ${receiver.url} (any path). Each accepted event is printed as one JSON line; Ctrl-C stops.`);
  out.info(
    `Each event is handed on once: its signed id is remembered until its timestamp is ${durationText(REPLAY_WINDOW_MS)} old, and older deliveries are answered 400`,
  );
  out.info(
    seen
      ? `The events handed on are kept in ${seen.path} across restarts (${seen.restored} from before)`
      : 'The events handed on are remembered until the listener stops (--secrets-file keeps them across restarts)',
  );
  if (forwardTo)
    out.info(`Forwarding each event to ${forwardTo} before answering; the target's answer is the service's`);
  await waitForStop(ctx.signal);
  await receiver.close();
  await Promise.allSettled([...pending]);
  await forwarder?.close();
  seen?.close();
}
