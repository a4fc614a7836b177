import { copyFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { PASSWORD, USERNAME } from '../helpers.js';
import { runBuiltInProcess } from './built-in-process.js';

/**
 * A logged-in profile of the demo agency's operator against `baseUrl`, with a token of each of
 * `workspaces` cached, made once; `fresh()` gives each caller a config folder of its own holding a
 * copy of it. For files that test what commands send and show, not how credentials are taken: a
 * run with credentials from the environment in a new folder digests them with scrypt and asks for
 * a token before its request, which doubles the time a run takes; the other built-tool files
 * (test/e2e/cli.test.ts and more) run that way. Its runs are the bundle's in this process, as
 * those of the files that use it.
 */
export async function operatorProfile(
  baseUrl: string,
  parent: string,
  workspaces: number[],
): Promise<{ env(config: string, extra?: Record<string, string>): Record<string, string>; fresh(): string }> {
  const made = mkdtempSync(join(parent, 'profile-'));
  const env = (config: string, extra: Record<string, string> = {}) => ({
    EDP_BASE_URL: baseUrl,
    EDP_CONFIG_DIR: config,
    ...extra,
  });
  const login = await runBuiltInProcess(['auth', 'login', '--username', USERNAME, '--password-stdin'], {
    env: env(made),
    stdin: PASSWORD,
  });
  expect(login.code, login.stderr).toBe(0);
  // At once: each run adds its token under the config file's lock (test/e2e/config-concurrency.test.ts).
  const tokens = await Promise.all(
    workspaces.map((ws) => runBuiltInProcess(['-w', String(ws), 'token'], { env: env(made) })),
  );
  for (const token of tokens) expect(token.code, token.stderr).toBe(0);
  return {
    env,
    fresh: () => {
      const config = mkdtempSync(join(parent, 'config-'));
      copyFileSync(join(made, 'config.json'), join(config, 'config.json'));
      return config;
    },
  };
}
