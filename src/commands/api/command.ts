import type { Command } from '@commander-js/extra-typings';
import { collectRepeatable, type App, type OptionsOf } from '../shared/app.js';
import { examples, paragraphs } from '../shared/help.js';

const api = (cmd: Command) =>
  cmd
    .argument('<method>', 'GET, POST, PUT, PATCH or DELETE; may be left out: GET, or POST with --input')
    .argument('[path]', 'path under the service address, e.g. /api/v3/workspaces')
    .option(
      '-f, --field <key=value>',
      'string field: a query parameter for GET, a body field otherwise (repeatable)',
      collectRepeatable,
    )
    .option(
      '-F, --typed-field <key=value>',
      'like -f, but numbers, true, false and null are sent as JSON values (repeatable)',
      collectRepeatable,
    )
    .option('--input <file>', 'request body from a JSON file ("-" for standard input)')
    .option('--paginate', 'GET every page of a paginated list and print all items')
    .option('--basic', 'use agency Basic credentials (the default for agency paths)')
    .option('--bearer', 'use the workspace token (the default for other paths)')
    .option('--limit <n>', 'with --paginate: stop after n items')
    .addHelpText(
      'after',
      paragraphs(
        'A GET the service redirects to its canonical path on the same service (a recipe path without its trailing slash) is sent there once; a write is not (its body would be lost): the canonical path is reported, exit 1.',
      ),
    )
    .addHelpText(
      'after',
      examples([
        'edp api /api/v3/workspaces --paginate',
        'edp -w 101 api GET /api/v3.1/automated-recipes/ -f state=failed',
        'edp -w 101 api PUT /api/v3/automated-recipes/42/ --input config.json',
      ]),
    );

export type ApiOptions = OptionsOf<ReturnType<typeof api>>;

export function register(cmd: Command, app: App): void {
  app.verb(api(cmd), () => import('./api.js').then((m) => m.runApi));
}
