import type { Command } from 'commander';
import type { App } from '../app.js';

export function registerRecipes(_program: Command, _app: App): void {}
