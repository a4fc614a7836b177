import type { Command } from 'commander';
import { collectRepeatable, lazy, legacyRun, type App } from '../shared/app.js';

export function registerApi(program: Command, app: App): void {
  program
    .command('api')
    .description('send a raw request with authentication, error handling and paging done for you')
    .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
    .argument('<path>', 'path under the service address, e.g. /api/v3/workspaces')
    .option('-f, --field <key=value>', 'string field: a query parameter for GET, a body field otherwise (repeatable)', collectRepeatable)
    .option('-F, --typed-field <key=value>', 'like -f, but numbers, true, false and null are sent as JSON values (repeatable)', collectRepeatable)
    .option('--input <file>', 'request body from a JSON file ("-" for standard input)')
    .option('--paginate', 'GET every page of a paginated list and print all items')
    .option('--basic', 'use agency Basic credentials (the default for agency paths)')
    .option('--bearer', 'use the workspace token (the default for other paths)')
    .option('--limit <n>', 'with --paginate: stop after n items')
    .addHelpText(
      'after',
      '\nExamples:\n  edp api GET /api/v3/workspaces --paginate\n  edp -w 101 api GET /api/v3.1/automated-recipes/ -f state=failed\n  edp -w 101 api PUT /api/v3/automated-recipes/42/ --input config.json',
    )
    .action(legacyRun(app, lazy(() => import('./run.js'), (m) => m.runApi)));
}
