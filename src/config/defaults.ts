/**
 * Built-in defaults and bounds of the settings, in a module that imports nothing: command
 * declarations (`command.ts`, loaded at start-up) name them in their help.
 */

/**
 * Workspaces a fleet command works on at once by default: `auto`, one per workspace up to a
 * cap, so that ten workspaces take about as long as one. A command that changes things works in
 * up to FLEET_CONCURRENCY_CAP at once; one that only reads (plan, export, status, freshness,
 * doctor) in up to FLEET_READ_CONCURRENCY_CAP: its reads are safe to repeat and light for the
 * service, and its time is mostly their waits (a workspace's plan reads in two rounds), which
 * only more workspaces at once overlap (docs/benchmarks.md, the fleet file's other kinds).
 */
export const AUTO_CONCURRENCY = 'auto';
export const FLEET_CONCURRENCY_CAP = 16;
export const FLEET_READ_CONCURRENCY_CAP = 32;
export const MAX_CONCURRENCY = 50;

/** The first pause between reads of every wait. */
export const DEFAULT_POLL_INTERVAL = '2s';

/** How long a wait waits when `--wait-timeout` is not given. */
export const DEFAULT_WAIT_TIMEOUT = '30m';
