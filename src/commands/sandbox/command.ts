import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples, paragraphs } from '../shared/help.js';

const sandbox = (cmd: Command) =>
  cmd
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option(
      '--host <host>',
      'address to listen on (other than loopback: reachable from the network, controls need a token)',
      '127.0.0.1',
    )
    .option(
      '--control-token <token>',
      'token the /_sandbox/ controls require in X-Sandbox-Token (env EDP_SANDBOX_TOKEN; generated when --host is not loopback)',
    )
    .option('--seed <n>', 'seed for demo data and fault injection', '1')
    .option('--username <email>', 'agency chief user name', 'agency@sandbox.local')
    .option('--password <password>', 'agency chief password', 'sandbox')
    .option('--state <file>', 'load the state from FILE and save each change to it before answering')
    .option('--scale <n>', 'one extra connection in the first workspace holds n x 100 accounts', '1')
    .option('--latency <ms>', 'added to every response', '0')
    .option('--fail-rate <r>', 'share of requests answered 503 with Retry-After (nothing done)', '0')
    .option('--retry-after <s>', 'Retry-After seconds on those 503s', '30')
    .option('--reset-rate <r>', 'share of requests carried out, then the connection dropped before the answer', '0')
    .option('--build-seconds <s>', 'how long each recipe build state lasts', '2')
    .option('--token-ttl <s>', 'token lifetime after last use', '1800')
    .option('--webhook-delay <s>', 'delay before a webhook delivery', '1')
    .addHelpText(
      'after',
      paragraphs(
        'Controls for tests live under /_sandbox/: the state, the OpenAPI document, the clock, agency flags, fault knobs, sessions, events, the request journal, webhook deliveries and their receivers, external authentication links (used, expired), accounts, destinations and their connections, exports, extraction behaviour, build errors, one-shot faults, view claims, legacy keys, templates, equipping a workspace for recipes and the v3 switch-off; docs/sandbox.md (Controls) lists each with its body. They answer requests addressed to localhost, 127.0.0.1 or [::1] only, or with the control token.',
      ),
    )
    .addHelpText('after', examples(['edp sandbox --port 4010 --latency 20 --fail-rate 0.1 --retry-after 1']));

export type SandboxOptions = OptionsOf<ReturnType<typeof sandbox>>;

export function register(cmd: Command, app: App): void {
  app.verb(sandbox(cmd), () => import('./sandbox.js').then((m) => m.runSandbox));
}
