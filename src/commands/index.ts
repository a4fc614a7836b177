import type { Command } from 'commander';
import type { App } from './app.js';
import { registerAuth } from './auth/index.js';
import { registerToken } from './token.js';
import { registerWorkspaces } from './workspaces/index.js';
import { registerIframeUrl } from './iframe-url.js';
import { registerSources } from './sources/index.js';
import { registerExtraction } from './extraction/index.js';
import { registerRecipes } from './recipes/index.js';
import { registerWebhooks } from './webhooks/index.js';
import { registerRoles } from './roles/index.js';
import { registerApi } from './api/index.js';
import { registerSandbox } from './sandbox/index.js';
import { registerCompletion } from './completion/index.js';

/** The command tree (cli-design: Command tree). Wiring only: handlers load when their command runs. */
export function registerCommands(program: Command, app: App): void {
  registerAuth(program, app);
  registerToken(program, app);
  registerWorkspaces(program, app);
  registerIframeUrl(program, app);
  registerSources(program, app);
  registerExtraction(program, app);
  registerRecipes(program, app);
  registerWebhooks(program, app);
  registerRoles(program, app);
  registerApi(program, app);
  registerSandbox(program, app);
  registerCompletion(program, app);
}
