import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { allWorkspacesFlag, concurrencyFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const doctor = (cmd: Command) =>
  cmd
    .addOption(allWorkspacesFlag())
    .addOption(concurrencyFlag('workspaces checked at once', 'reads'))
    .addHelpText(
      'after',
      examples(
        ['edp doctor --all-workspaces', 'edp doctor -w 101 --json'],
        'Exit 1 when something needs action, 0 otherwise.',
      ),
    );

export type DoctorOptions = OptionsOf<ReturnType<typeof doctor>>;

export function register(cmd: Command, app: App): void {
  app.verb(doctor(cmd), () => import('./doctor.js').then((m) => m.runDoctor));
}
