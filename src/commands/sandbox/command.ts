import { Command } from '@commander-js/extra-typings';
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
    .option('--seed <n>', 'seed for demo data and fault injection (default 1)')
    .option('--username <email>', 'agency chief user name (default agency@sandbox.local)')
    .option('--password <password>', 'agency chief password (default sandbox)')
    .option('--state <file>', 'load the state from FILE and save each change to it before answering')
    .option(
      '--fixture <file>',
      'start with the agency, users, roles and workspaces of a fixture file (YAML or JSON, - for stdin) instead of the demo data',
    )
    .option(
      '--from <file>',
      'start shaped like an `edp export` file of another service (its workspaces, recipes, webhook endpoints, roles, destinations, extracts) instead of the demo data',
    )
    .option('--scale <n>', 'one extra connection in the first workspace holds n x 100 accounts (default 1)')
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
        'A fixture (--fixture) sets what the sandbox starts with, and what POST /_sandbox/reset returns to: the agency chief (agency.username, agency.password), other users and their roles, custom roles, and workspaces with their connections and accounts (by remote id), destinations, extracts, recipes and webhook endpoints; docs/sandbox-fixture.schema.json is its JSON Schema. --from does the same from an export of another service, so that a plan of that export against the sandbox has nothing to change. Either replaces the demo data, so neither goes with --seed, --username, --password or --scale, nor with a --state file that already holds a state.',
        'Controls for tests live under /_sandbox/: the state, a reset to the start state, snapshots taken and restored, the OpenAPI document, the clock, agency flags, fault knobs, sessions, events, the request journal, webhook deliveries and their receivers, external authentication links (used, expired), accounts, destinations and their connections, exports, extraction behaviour, build errors, one-shot faults, view claims, legacy keys, templates, equipping a workspace for recipes and the v3 switch-off; docs/sandbox.md (Controls) lists each with its body. They answer requests addressed to localhost, 127.0.0.1 or [::1] only, or with the control token.',
      ),
    )
    .addHelpText(
      'after',
      examples([
        'edp sandbox --port 4010 --latency 20 --fail-rate 0.1 --retry-after 1',
        'edp sandbox --port 0 --fixture fixture.yaml',
        'edp sandbox --from fleet.yaml',
      ]),
    );

const trigger = () =>
  new Command('trigger')
    .argument('<event-type>', "an event type, checked against the contract's list")
    .description(
      "send a running sandbox's webhook endpoints an event: a signed delivery of that type, with a payload of its shape, to every active endpoint of the workspace (-w) subscribed to it",
    )
    .option(
      '--data <json>',
      "a JSON object merged over the sample payload's data (objects key by key; keys of its own kept)",
    )
    .addHelpText(
      'after',
      paragraphs(
        "It calls the control POST /_sandbox/events of the sandbox at --base-url (or EDP_BASE_URL, or the profile's base URL), with X-Sandbox-Token from EDP_SANDBOX_TOKEN when that is set. The delivery goes the way every delivery does: after --webhook-delay, signed with each endpoint's secret, retried, in the deliveries log. Silent event types are sent too. At a terminal it prints a line per endpoint sent to; --json prints the control's answer: the event and the endpoints.",
      ),
    )
    .addHelpText(
      'after',
      examples([
        'edp sandbox trigger load_completed -w 101 --base-url http://127.0.0.1:4010',
        'edp sandbox trigger load_completed -w 101 --data \'{"load_id": "42"}\' --json',
      ]),
    );

export type SandboxOptions = OptionsOf<ReturnType<typeof sandbox>>;
export type TriggerOptions = OptionsOf<ReturnType<typeof trigger>>;

export function register(cmd: Command, app: App): void {
  app.verb(sandbox(cmd), () => import('./sandbox.js').then((m) => m.runSandbox));
  // A verb under a command that runs itself: `edp sandbox --port 0` runs the sandbox, `edp sandbox trigger …` the verb.
  cmd.addCommand(app.verb(trigger(), () => import('./trigger.js').then((m) => m.runTrigger)));
}
