import { ENVIRONMENT, type EnvironmentVariable } from '../../config/environment.js';
import { wrap } from './help.js';

/** `edp help environment`: every variable the tool reads, what it does and which commands read it, at `width` columns. */
export function environmentHelp(width: number): string {
  const lines = [
    ...wrap(
      "Environment variables edp reads. A flag wins over its variable, and a variable over the profile (`edp config`). Credentials from the environment replace the profile's whole.",
      width,
    ),
    '',
  ];
  for (const v of ENVIRONMENT) {
    lines.push(v.name, ...wrap(`${v.text}${readByText(v)}`, width - 2).map((l) => `  ${l}`), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Which commands read a variable that not every command reads, as a sentence's end. */
export function readByText(v: EnvironmentVariable): string {
  if (v.readBy === 'all') return '';
  if ('commands' in v.readBy) return ` Read by: ${v.readBy.commands.map((c) => `edp ${c}`).join(', ')}.`;
  return ` Read by the commands that take ${v.readBy.options.join(', ')}.`;
}
