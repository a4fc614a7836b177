import type { Command } from 'commander';
import { lazy, legacyRun, type App } from '../shared/app.js';

export function registerWebhooks(program: Command, app: App): void {
  const hooks = program
    .command('webhooks')
    .description('webhook endpoints of a workspace, their event types, and a local receiver (workspace token)');
  const load = () => import('./run.js');
  hooks
    .command('list')
    .description('list the workspace\'s webhook endpoints')
    .option('--limit <n>', 'stop after n endpoints')
    .addHelpText('after', '\nExamples:\n  edp webhooks list -w 101')
    .action(legacyRun(app, lazy(load, (m) => m.runList)));
  hooks
    .command('get')
    .argument('<id>', 'endpoint id')
    .description('show one webhook endpoint')
    .addHelpText('after', '\nExamples:\n  edp webhooks get 3 -w 101 --json')
    .action(legacyRun(app, lazy(load, (m) => m.runGet)));
  hooks
    .command('create')
    .description('create an endpoint (unverified); prints its secret, shown only this once')
    .requiredOption('--url <url>', 'receiver address (http or https)')
    .requiredOption('--events <a,b>', 'event types to subscribe to, checked against the service\'s list')
    .addHelpText('after', '\nExamples:\n  edp webhooks create -w 101 --url https://hooks.example.com/edp --events workspace_created,load_completed')
    .action(legacyRun(app, lazy(load, (m) => m.runCreate)));
  hooks
    .command('update')
    .argument('<id>', 'endpoint id')
    .description('replace the event types an endpoint is subscribed to')
    .requiredOption('--events <a,b>', 'the complete new list of event types')
    .addHelpText('after', '\nExamples:\n  edp webhooks update 3 -w 101 --events load_completed,load_started')
    .action(legacyRun(app, lazy(load, (m) => m.runUpdate)));
  hooks
    .command('delete')
    .argument('<id>', 'endpoint id')
    .description('delete an endpoint (asks on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  edp webhooks delete 3 -w 101 --yes')
    .action(legacyRun(app, lazy(load, (m) => m.runDelete)));
  hooks
    .command('verify')
    .argument('<id>', 'endpoint id')
    .description('ask the service to send the challenge GET; the endpoint becomes active when the receiver echoes it')
    .addHelpText('after', '\nExamples:\n  edp webhooks verify 3 -w 101')
    .action(legacyRun(app, lazy(load, (m) => m.runVerify)));
  hooks
    .command('rotate-secret')
    .argument('<id>', 'endpoint id')
    .description('issue a new secret; the old one stops working at once and the endpoint is unverified again')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  edp webhooks rotate-secret 3 -w 101 --yes --json')
    .action(legacyRun(app, lazy(load, (m) => m.runRotateSecret)));
  hooks
    .command('event-types')
    .description('list the event types an endpoint can subscribe to')
    .option('--limit <n>', 'stop after n types')
    .addHelpText('after', '\nExamples:\n  edp webhooks event-types -w 101')
    .action(legacyRun(app, lazy(load, (m) => m.runEventTypes)));
  hooks
    .command('listen')
    .description('run a local receiver: answers the verification challenge, checks signatures, prints each event as one JSON line')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4011')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secret <secret>', 'the endpoint\'s signing secret (better: env EDP_WEBHOOK_SECRET, not visible in the process list)')
    .option('--events <a,b>', 'print only these event types (others are acknowledged and dropped)')
    .option('--forward-to <url>', 're-post each accepted event, with its signature headers, after acknowledging it')
    .addHelpText(
      'after',
      '\nRefuses a bad signature (401) and bodies over 1 MiB (413); a repeated idempotency key is acknowledged\n' +
        'without printing the event again (remembered for at least 10 minutes).\n\n' +
        'Examples:\n  EDP_WEBHOOK_SECRET=… edp webhooks listen --port 4011 --forward-to http://localhost:3000/hooks | jq .type',
    )
    .action(legacyRun(app, lazy(() => import('./listen.js'), (m) => m.runListen)));
}
