import type { Credentials } from './config/credentials.js';
import type { RunSettings } from './config/resolve.js';
import type { ConfigStore } from './config/store.js';
import { Service } from './api/service.js';
import { retryNoticeText } from './api/retry.js';
import type { IO } from './output/io.js';
import type { Output } from './output/output.js';
import { warnIfSentInClear } from './output/clear-text.js';
import { parsePositiveInt } from './util/validate.js';
import { VERSION } from './version.js';

/** What a run's service client is wired from (Context.api). */
export interface RunWiring {
  settings: RunSettings;
  credentials: Credentials;
  store: ConfigStore;
  output: Output;
  io: Pick<IO, 'env' | 'sleep'>;
  signal: AbortSignal | undefined;
}

/**
 * The run's service client: its address, --timeout and credentials from the settings, its token
 * cache in the config file, Ctrl-C, the retry notices and --verbose's request log on the output,
 * the environment's limits (EDP_PAGE_CONCURRENCY, EDP_MAX_RESPONSE_MB) and proxies
 * (HTTPS_PROXY, HTTP_PROXY, NO_PROXY: src/http/proxy.ts), and the run's pauses.
 */
export async function runService({ settings, credentials, store, output, io, signal }: RunWiring): Promise<Service> {
  // The request log is loaded only for --verbose (or EDP_DEBUG=1).
  const logRequest = output.flags.verbose ? (await import('./output/request-log.js')).logRequest : undefined;
  const baseUrl = settings.baseUrl().value;
  warnIfSentInClear(output, baseUrl, credentials);
  const { env } = io;
  return new Service({
    baseUrl,
    timeoutMs: settings.timeout.value,
    credentials,
    store,
    profile: settings.profile.value,
    signal,
    userAgent: `edp/${VERSION}`,
    log: logRequest ? (e) => logRequest(output, e) : undefined,
    // A repeat after a busy answer or a dropped connection can wait 30 s: say so (not with --quiet).
    onRetry: (notice) => output.info(retryNoticeText(notice)),
    pageConcurrency: env.EDP_PAGE_CONCURRENCY
      ? parsePositiveInt(env.EDP_PAGE_CONCURRENCY, 'EDP_PAGE_CONCURRENCY', { max: 32 })
      : undefined,
    maxResponseBytes: env.EDP_MAX_RESPONSE_MB
      ? parsePositiveInt(env.EDP_MAX_RESPONSE_MB, 'EDP_MAX_RESPONSE_MB', { max: 4096 }) * 1024 * 1024
      : undefined,
    env,
    sleep: io.sleep,
  });
}
