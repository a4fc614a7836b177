import type { Command } from 'commander';
import type { App } from '../app.js';

export function registerRoles(_program: Command, _app: App): void {}
