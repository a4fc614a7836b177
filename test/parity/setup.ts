import type { TestProject } from 'vitest/node';

/**
 * Chooses the target of the parity checks. With EDP_BASE_URL it is that service, with the agency
 * chief's EDP_USERNAME / EDP_PASSWORD, read-only unless EDP_PARITY_WORKSPACE names a scratch
 * workspace. Without it, a fresh sandbox on a free port, with its demo credentials and one of
 * its workspaces as the scratch workspace, so that every check runs. Starting the sandbox is the
 * only sandbox-specific code of the suite: the checks speak HTTP only.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const scratch = process.env.EDP_PARITY_WORKSPACE?.trim() || undefined;
  if (scratch !== undefined && !/^\d+$/.test(scratch)) {
    throw new Error(`EDP_PARITY_WORKSPACE must be a workspace id (an integer), got "${scratch}".`);
  }
  const baseUrl = process.env.EDP_BASE_URL?.trim();
  if (baseUrl) {
    const username = process.env.EDP_USERNAME;
    const password = process.env.EDP_PASSWORD;
    if (!username || !password) {
      throw new Error('EDP_BASE_URL is set: set EDP_USERNAME and EDP_PASSWORD to the agency chief credentials too.');
    }
    project.provide('parity', {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      username,
      password,
      scratchWorkspace: scratch ?? null,
      target: 'service',
    });
    return async () => {};
  }

  const { startSandbox, defaultSandboxOptions } = await import('../../src/sandbox/index.js');
  const sandbox = await startSandbox({ port: 0 });
  const workspaces = sandbox.store.state.workspaces;
  project.provide('parity', {
    baseUrl: sandbox.url,
    username: defaultSandboxOptions.username,
    password: defaultSandboxOptions.password,
    // The last demo workspace; the checks create what they need there and delete it afterwards.
    scratchWorkspace: scratch ?? String(workspaces[workspaces.length - 1]!.id),
    target: 'fresh sandbox',
  });
  return async () => {
    await sandbox.close();
  };
}

export interface ParityTarget {
  baseUrl: string;
  username: string;
  password: string;
  /** the workspace write checks may use, or null: write checks are skipped */
  scratchWorkspace: string | null;
  target: 'service' | 'fresh sandbox';
}

declare module 'vitest' {
  export interface ProvidedContext {
    parity: ParityTarget;
  }
}
