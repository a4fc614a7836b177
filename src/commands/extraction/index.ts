import type { Command } from 'commander';
import type { App } from '../app.js';

export function registerExtraction(_program: Command, _app: App): void {}
