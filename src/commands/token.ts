import type { Command } from 'commander';
import { lazy, type App } from './app.js';

export function registerToken(program: Command, app: App): void {
  program
    .command('token')
    .description('print a Bearer token for the workspace (cached, renewed on expiry)')
    .addHelpText('after', '\nExamples:\n  edp token -w 101\n  curl -H "Authorization: Bearer $(edp token -w 101)" …\n  edp token -w 101 --json   # {token, workspace_id, expires_at}')
    .action(app.run(lazy(() => import('./token-run.js'), (m) => m.runToken)));
}
