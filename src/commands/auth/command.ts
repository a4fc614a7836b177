import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const login = () =>
  new Command('login')
    .description('store Basic credentials in the profile after checking them with the service')
    .option('--username <email>', 'agency user name')
    .option('--password-stdin', 'read the password from standard input')
    .addHelpText(
      'after',
      examples([
        'edp auth login',
        'printf %s "$PASS" | edp auth login --username ops@agency.example --password-stdin --base-url https://api.example.com',
      ]),
    );
const status = () =>
  new Command('status')
    .description('show the profile, service address, user and cached tokens (never a secret)')
    .option('--offline', 'do not check the credentials with the service')
    .option(
      '--all',
      'list every profile: name, user, service address, default workspace (read from the file; nothing is sent)',
    )
    .addHelpText(
      'after',
      examples(['edp auth status', 'edp auth status --offline --profile ci', 'edp auth status --json']),
    );
const logout = () =>
  new Command('logout')
    .description("remove the profile's stored credentials and cached tokens")
    .addHelpText('after', examples(['edp auth logout', 'edp auth logout --profile staging']));

export type LoginOptions = OptionsOf<ReturnType<typeof login>>;
export type StatusOptions = OptionsOf<ReturnType<typeof status>>;
export type LogoutOptions = OptionsOf<ReturnType<typeof logout>>;

export function register(auth: Command, app: App): void {
  auth
    .addCommand(app.verb(login(), () => import('./login.js').then((m) => m.runLogin)))
    .addCommand(app.verb(status(), () => import('./status.js').then((m) => m.runStatus)))
    .addCommand(app.verb(logout(), () => import('./logout.js').then((m) => m.runLogout)));
}
