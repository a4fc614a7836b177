import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { secretsFileFlag, secretsFileReadFlag, yesFlag } from '../shared/flags.js';
import { examples, paragraphs } from '../shared/help.js';

/** Where a secret the service shows only once may be printed (shared/secret-not-shown.ts). */
const SECRET_ONCE =
  'The service shows the secret only in this answer. It is printed to a terminal or a file; to a pipe only with --json (or --jq), as a pipe may drop what its reader never read (`| head -1`): otherwise the command refuses before sending anything (exit 2). --secrets-file FILE writes it to FILE instead, and the endpoint is printed without it. If any output of the run is lost (a closed pipe), the run fails with exit 141 and the command that makes a new secret.';

const list = () =>
  new Command('list')
    .description("list the workspace's webhook endpoints")
    .option('--limit <n>', 'stop after n endpoints')
    .addHelpText('after', examples(['edp webhooks list -w 101']));
const get = () =>
  new Command('get')
    .argument('<id>', 'endpoint id')
    .description('show one webhook endpoint')
    .addHelpText('after', examples(['edp webhooks get 3 -w 101 --json']));
const create = () =>
  new Command('create')
    .description('create an endpoint (unverified); prints its secret, shown only this once')
    .requiredOption('--url <url>', 'receiver address (http or https)')
    .requiredOption('--events <a,b>', "event types to subscribe to, checked against the service's list")
    .addOption(secretsFileFlag("the new endpoint's secret"))
    .addHelpText('after', paragraphs(SECRET_ONCE))
    .addHelpText(
      'after',
      examples([
        'edp webhooks create -w 101 --url https://hooks.example.com/edp --events workspace_created,load_completed',
        'edp webhooks create -w 101 --url http://127.0.0.1:4011/hooks --events load_completed --secrets-file secrets.json',
      ]),
    );
const update = () =>
  new Command('update')
    .argument('<id>', 'endpoint id')
    .description('replace the event types an endpoint is subscribed to')
    .requiredOption('--events <a,b>', 'the complete new list of event types')
    .addHelpText('after', examples(['edp webhooks update 3 -w 101 --events load_completed,load_started']));
const del = () =>
  new Command('delete')
    .argument('<id>', 'endpoint id')
    .description('delete an endpoint (asks on a terminal; --yes otherwise)')
    .addOption(yesFlag())
    .addHelpText('after', examples(['edp webhooks delete 3 -w 101 --yes']));
const verify = () =>
  new Command('verify')
    .argument('<id>', 'endpoint id')
    .description('ask the service to send the challenge GET; the endpoint becomes active when the receiver echoes it')
    .addHelpText('after', examples(['edp webhooks verify 3 -w 101']));
const rotateSecret = () =>
  new Command('rotate-secret')
    .argument('<id>', 'endpoint id')
    .description('issue a new secret; the old one stops working at once and the endpoint is unverified again')
    .addOption(yesFlag())
    .addOption(secretsFileFlag('the new secret'))
    .addHelpText('after', paragraphs(SECRET_ONCE))
    .addHelpText(
      'after',
      examples([
        'edp webhooks rotate-secret 3 -w 101 --yes --json',
        'edp webhooks rotate-secret 3 -w 101 --yes --secrets-file secrets.json',
      ]),
    );
const eventTypes = () =>
  new Command('event-types')
    .description('list the event types an endpoint can subscribe to')
    .option('--limit <n>', 'stop after n types')
    .addHelpText('after', examples(['edp webhooks event-types -w 101']));
const listen = () =>
  new Command('listen')
    .description(
      'run a local receiver: answers the verification challenge, checks signatures, prints each event as one JSON line',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4011')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--secret <secret>',
      "an endpoint's signing secret, repeatable, one per endpoint (better: env EDP_WEBHOOK_SECRET or --secrets-file, not visible in the process list)",
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .addOption(
      secretsFileReadFlag(
        'the secrets `edp apply`, `webhooks create` and `webhooks rotate-secret` wrote with --secrets-file, one per endpoint; read again when it changes',
      ),
    )
    .option('--events <a,b>', 'print only these event types (others are acknowledged and dropped)')
    .option(
      '--forward-to <url>',
      're-post each accepted event, with its signature headers, before answering the service: a refusal by the target (or no answer) is passed back, so the service delivers the event again',
    )
    .addHelpText(
      'after',
      paragraphs(
        'Refuses a bad signature (401) and bodies over 1 MiB (413). A repeat of an event (the same signed id and type, whatever its idempotency key) is acknowledged without printing or forwarding it again; events are remembered until their signed timestamp is 60 minutes old, and older deliveries are refused (400).',
        'With --secrets-file FILE the events handed on are kept in FILE.seen (mode 0600), so a restart forgets none. Otherwise they are kept in memory only: a delivery sent again after a restart, while its timestamp is under 60 minutes old, is handed on again.',
      ),
    )
    .addHelpText(
      'after',
      examples([
        'EDP_WEBHOOK_SECRET=… edp webhooks listen --port 4011 --forward-to http://localhost:3000/hooks | jq .type',
        'edp webhooks listen --secrets-file secrets.json   # every endpoint `edp apply --secrets-file secrets.json` creates',
      ]),
    );

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type UpdateOptions = OptionsOf<ReturnType<typeof update>>;
export type DeleteOptions = OptionsOf<ReturnType<typeof del>>;
export type VerifyOptions = OptionsOf<ReturnType<typeof verify>>;
export type RotateSecretOptions = OptionsOf<ReturnType<typeof rotateSecret>>;
export type EventTypesOptions = OptionsOf<ReturnType<typeof eventTypes>>;
export type ListenOptions = OptionsOf<ReturnType<typeof listen>>;

export function register(webhooks: Command, app: App): void {
  webhooks
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(update(), () => import('./update.js').then((m) => m.runUpdate)))
    .addCommand(app.verb(del(), () => import('./delete.js').then((m) => m.runDelete)))
    .addCommand(app.verb(verify(), () => import('./verify.js').then((m) => m.runVerify)))
    .addCommand(app.verb(rotateSecret(), () => import('./rotate-secret.js').then((m) => m.runRotateSecret)))
    .addCommand(app.verb(eventTypes(), () => import('./event-types.js').then((m) => m.runEventTypes)))
    .addCommand(app.verb(listen(), () => import('./listen.js').then((m) => m.runListen)));
}
