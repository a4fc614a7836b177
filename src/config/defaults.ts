/**
 * Built-in defaults and bounds of the settings, in a module that imports nothing: command
 * declarations (`command.ts`, loaded at start-up) name them in their help.
 */

/**
 * Workspaces a fleet command works on at once by default: `auto`, one per workspace up to
 * FLEET_CONCURRENCY_CAP, so that ten workspaces take about as long as one.
 */
export const AUTO_CONCURRENCY = 'auto';
export const FLEET_CONCURRENCY_CAP = 16;
export const MAX_CONCURRENCY = 50;

/** The first pause between reads of every wait. */
export const DEFAULT_POLL_INTERVAL = '2s';

/** How long a wait waits when `--wait-timeout` is not given. */
export const DEFAULT_WAIT_TIMEOUT = '30m';
