import type { Command } from 'commander';
import { lazy, legacyRun, type App } from '../shared/app.js';
import { examples } from '../shared/help.js';

export function registerAuth(program: Command, app: App): void {
  const auth = program.command('auth').description('store, check and remove agency credentials');
  auth
    .command('login')
    .description('store Basic credentials in the profile after checking them with the service')
    .option('--username <email>', 'agency user name')
    .option('--password-stdin', 'read the password from standard input')
    .addHelpText('after', '\nExamples:\n  edp auth login\n  printf %s "$PASS" | edp auth login --username ops@agency.example --password-stdin --base-url https://api.example.com')
    .action(legacyRun(app, lazy(() => import('./login.js'), (m) => m.runLogin)));
  auth
    .command('status')
    .description('show the profile, service address, user and cached tokens (never a secret)')
    .option('--offline', 'do not check the credentials with the service')
    .option('--all', 'list every profile: name, user, service address, default workspace (read from the file; nothing is sent)')
    .addHelpText('after', examples(['edp auth status', 'edp auth status --offline --profile ci', 'edp auth status --json']))
    .action(legacyRun(app, lazy(() => import('./status.js'), (m) => m.runStatus)));
  auth
    .command('logout')
    .description('remove the profile\'s stored credentials and cached tokens')
    .addHelpText('after', examples(['edp auth logout', 'edp auth logout --profile staging']))
    .action(legacyRun(app, lazy(() => import('./status.js'), (m) => m.runLogout)));
}
