/**
 * Every environment variable the tool reads, once: `edp help environment` lists them and each
 * man page's ENVIRONMENT section names those of its command (scripts/manual/pages.ts).
 * test/config/environment.test.ts fails on a variable read in the sources and missing here.
 * Imports nothing: the help reads it.
 */

export interface EnvironmentVariable {
  name: string;
  /** what it does, one sentence */
  text: string;
  /**
   * Which commands read it: every command (`all`), those taking one of these options
   * (`--poll-interval`), or these commands by their words (`webhooks listen`).
   */
  readBy: 'all' | { options: string[] } | { commands: string[] };
}

/** The verbs that send a destination connection's parameters, secrets included. */
const CONNECTION_WRITES = { commands: ['destinations connections create', 'destinations connections update'] };

export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  { name: 'EDP_PROFILE', text: 'the profile to use, as --profile (default "default").', readBy: 'all' },
  {
    name: 'EDP_BASE_URL',
    text: "the service's address, as --base-url; wins over the profile's base_url.",
    readBy: 'all',
  },
  {
    name: 'EDP_WORKSPACE',
    text: "the workspace, as -w: one id, or a comma list for commands that span workspaces (and it narrows a fleet file as -w does); wins over the profile's default workspace.",
    readBy: 'all',
  },
  {
    name: 'EDP_USERNAME',
    text: "the agency's user name for Basic authentication; with EDP_PASSWORD, replaces the profile's credentials.",
    readBy: 'all',
  },
  { name: 'EDP_PASSWORD', text: "the agency's password, with EDP_USERNAME.", readBy: 'all' },
  {
    name: 'EDP_TOKEN',
    text: 'a ready workspace token, never issued or renewed by the tool. It acts in one workspace, which EDP_WORKSPACE must name (edp -w ID token --env prints both); a -w naming another workspace is refused.',
    readBy: 'all',
  },
  {
    name: 'EDP_SESSION_ID',
    text: 'a cookie session (dts_session_id) for workspace operations, instead of tokens.',
    readBy: 'all',
  },
  {
    name: 'EDP_CONFIG_DIR',
    text: 'the folder of the configuration file (default $XDG_CONFIG_HOME/edp, else ~/.config/edp).',
    readBy: 'all',
  },
  {
    name: 'EDP_CONCURRENCY',
    text: "workspaces worked on at once, as --concurrency (1 to 50, or auto); wins over the profile's concurrency.",
    readBy: { options: ['--concurrency'] },
  },
  {
    name: 'EDP_POLL_INTERVAL',
    text: "the first pause between a wait's reads, as --poll-interval (e.g. 5s); wins over the profile's poll_interval.",
    readBy: { options: ['--poll-interval'] },
  },
  { name: 'EDP_DEBUG', text: 'set to 1: log each request on stderr, as --verbose.', readBy: 'all' },
  {
    name: 'EDP_PAGE_CONCURRENCY',
    text: 'pages of a list read at once (1 to 32, default 6).',
    readBy: 'all',
  },
  {
    name: 'EDP_MAX_RESPONSE_MB',
    text: 'the largest answer read, in MiB (1 to 4096, default 64).',
    readBy: 'all',
  },
  {
    name: 'HTTPS_PROXY',
    text: 'the proxy requests to an https:// service go through, as http://[USER:PASSWORD@]HOST:PORT (https_proxy wins when both are set; with neither, HTTP_PROXY). Never for localhost, 127.0.0.0/8 or ::1.',
    readBy: 'all',
  },
  {
    name: 'HTTP_PROXY',
    text: 'the proxy requests to an http:// service go through (http_proxy wins when both are set). Requests go inside a CONNECT tunnel: the proxy sees the host and port, never a credential.',
    readBy: 'all',
  },
  {
    name: 'NO_PROXY',
    text: 'hosts reached without the proxy, separated by commas: a name matches its subdomains too (example.com, .example.com), HOST:PORT that port alone, * every host (no_proxy wins when both are set).',
    readBy: 'all',
  },
  {
    name: 'EDP_WEBHOOK_SECRET',
    text: "an endpoint's secret the receiver checks signatures with, as --secret.",
    readBy: { commands: ['webhooks listen'] },
  },
  {
    name: 'EDP_AWS_ACCESS_KEY_ID',
    text: "an s3 destination's access key id, as --aws-access-key-id.",
    readBy: CONNECTION_WRITES,
  },
  {
    name: 'EDP_AWS_SECRET_ACCESS_KEY',
    text: "an s3 destination's secret access key (kept out of the command line and its history).",
    readBy: CONNECTION_WRITES,
  },
  {
    name: 'EDP_DESTINATION_SECRET',
    text: 'the secret of a destination other than s3 (kept out of the command line and its history).',
    readBy: CONNECTION_WRITES,
  },
  {
    name: 'EDP_SANDBOX_TOKEN',
    text: 'the token the sandbox controls require, as --control-token; the sandbox trigger verb sends it.',
    readBy: { commands: ['sandbox', 'sandbox trigger'] },
  },
  {
    name: 'CI',
    text: 'set (and not 0 or false): never prompt, as --no-input.',
    readBy: 'all',
  },
  { name: 'NO_COLOR', text: 'set and not empty: no colour, as --no-color.', readBy: 'all' },
  { name: 'FORCE_COLOR', text: 'colour even off a terminal (0 turns it off).', readBy: 'all' },
  { name: 'TERM', text: 'dumb: no colour at a terminal.', readBy: 'all' },
  { name: 'COLORTERM', text: 'truecolor: colours in 24 bits at a terminal.', readBy: 'all' },
  {
    name: 'HOME',
    text: 'where the configuration and cache folders are when the XDG variables are not set.',
    readBy: 'all',
  },
  {
    name: 'XDG_CONFIG_HOME',
    text: 'where the configuration folder is, when EDP_CONFIG_DIR is not set.',
    readBy: 'all',
  },
  {
    name: 'XDG_CACHE_HOME',
    text: 'where the tool keeps its start-up code caches (default ~/.cache/edp; safe to delete).',
    readBy: 'all',
  },
  {
    name: 'NODE_COMPILE_CACHE',
    text: "Node's own compile cache folder; when set, the tool uses it instead of its own.",
    readBy: 'all',
  },
];

/** The variables a command reads besides those every command reads: by its words (`webhooks listen`) and its options. */
export function commandEnvironment(words: string, options: readonly string[]): EnvironmentVariable[] {
  return ENVIRONMENT.filter(
    (v) =>
      v.readBy !== 'all' &&
      ('commands' in v.readBy ? v.readBy.commands.includes(words) : v.readBy.options.some((o) => options.includes(o))),
  );
}

/** The variables every command reads. */
export function commonEnvironment(): EnvironmentVariable[] {
  return ENVIRONMENT.filter((v) => v.readBy === 'all');
}
