import type { GlobalOptionValues } from '../global-options.js';
import type { IO } from './io.js';
import type { OutputFlags } from './output.js';

/**
 * How a run writes, as its global options and its streams ask: --jq implies JSON output (with
 * --ndjson it filters each line's item); errors are JSON documents under --json or --ndjson, and
 * under --jq unless a person reads stderr at a terminal (as gh prints them); EDP_DEBUG=1 is
 * --verbose.
 */
export function outputFlagsOf(flags: GlobalOptionValues, io: Pick<IO, 'env' | 'stderr'>): OutputFlags {
  return {
    json: !!flags.json || (flags.jq !== undefined && !flags.ndjson),
    ndjson: !!flags.ndjson,
    jsonErrors: !!flags.json || !!flags.ndjson || (flags.jq !== undefined && !io.stderr.isTTY),
    quiet: !!flags.quiet,
    verbose: !!flags.verbose || io.env.EDP_DEBUG === '1',
    color: flags.color !== false,
  };
}
