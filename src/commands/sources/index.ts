import type { Command } from 'commander';
import type { App } from '../app.js';

export function registerSources(_program: Command, _app: App): void {}
