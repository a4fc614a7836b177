import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parsePositiveInt, parseUrl } from '../../util/validate.js';
import type { Opts } from '../app.js';
import { parseEventList } from './run.js';
import { startReceiver } from './receiver.js';

/** Where the signing secret may come from besides --secret (which other users can see in the process list). */
export const SECRET_ENV = 'EDP_WEBHOOK_SECRET';

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
 * `edp webhooks listen`: a local receiver (cli-design). Each accepted event is one NDJSON line
 * on stdout; notes and the address go to stderr. Needs no credentials for the service.
 */
export async function runListen(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const secret: string | undefined = opts.secret ?? ctx.env[SECRET_ENV];
  if (!secret) {
    throw new UsageError(`a signing secret is needed: pass --secret S or set ${SECRET_ENV} (the secret is shown by \`edp webhooks create\` and \`edp webhooks rotate-secret\`)`);
  }
  const port = parsePositiveInt(opts.port, '--port', { min: 0, max: 65535 });
  const events = opts.events === undefined ? undefined : new Set(parseEventList(opts.events, '--events'));
  const forwardTo = opts.forwardTo === undefined ? undefined : parseUrl(opts.forwardTo, '--forward-to');

  const { DeliveryForwarder } = await import('../../api/forwarder.js');
  const forwarder = forwardTo ? new DeliveryForwarder(forwardTo) : undefined;
  const pending = new Set<Promise<void>>();
  const out = ctx.output;
  let receiver;
  try {
    receiver = await startReceiver({
      secret,
      host: String(opts.host),
      port,
      events,
      onEvent: (delivery) => {
        out.line(delivery.line);
        if (!forwarder) return;
        const p = forwarder
          .forward(delivery.body, delivery.headers)
          .then((status) => {
            if (status < 200 || status >= 300) out.warn(`--forward-to answered ${status} for ${delivery.type ?? 'an event'}`);
          })
          .catch((err: Error) => out.warn(`could not forward ${delivery.type ?? 'an event'} to ${forwardTo}: ${err.message}`))
          .finally(() => pending.delete(p));
        pending.add(p);
      },
      onNote: (kind, text) => {
        if (kind === 'refused') out.warn(text);
        else if (kind === 'filtered') out.debug(text);
        else out.info(text);
      },
    });
  } catch (err) {
    await forwarder?.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port ${port} is already in use on ${opts.host}; pick another port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host ${opts.host} is not an address of this machine`);
    throw err;
  }
  out.info(`Listening on ${receiver.url} (any path). Each accepted event is printed as one JSON line; Ctrl-C stops.`);
  if (forwardTo) out.info(`Forwarding accepted events to ${forwardTo}`);
  await waitForStop(ctx.signal);
  await receiver.close();
  await Promise.allSettled([...pending]);
  await forwarder?.close();
  return 0;
}
