import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { OPERATIONS, pathPattern } from '../../src/contract/operations.js';
import { violationOf } from '../fixtures/openapi-check.js';
import { leftBehindLines } from './left-behind.js';
import { whyNotExercised, type RunGates } from './unexercised.js';

/**
 * Chooses the target of the parity checks. With EDP_BASE_URL it is that service, with the agency
 * chief's EDP_USERNAME / EDP_PASSWORD, read-only unless EDP_PARITY_WORKSPACE names a scratch
 * workspace; writes outside it (a workspace made, a recipe enabled) only with
 * EDP_PARITY_AGENCY_WRITES=1, and connections deleted only those EDP_PARITY_DELETE_CONNECTIONS
 * names. Without it, a fresh sandbox on a free port, with its demo credentials and one of its
 * workspaces as the scratch workspace, so that every check runs: the sandbox is thrown away.
 * Starting the sandbox is the only sandbox-specific code of the suite: the checks speak HTTP only.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Every answer the checks get is kept there, and judged against the OpenAPI document at the end.
  const answers = mkdtempSync(join(tmpdir(), 'edp-parity-answers-'));
  const scratch = process.env.EDP_PARITY_WORKSPACE?.trim() || undefined;
  if (scratch !== undefined && !/^\d+$/.test(scratch)) {
    throw new Error(`EDP_PARITY_WORKSPACE must be a workspace id (an integer), got "${scratch}".`);
  }
  const deletable = (process.env.EDP_PARITY_DELETE_CONNECTIONS ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (deletable.some((id) => !/^\d+$/.test(id))) {
    throw new Error(
      `EDP_PARITY_DELETE_CONNECTIONS must be connection ids (integers, comma-separated), got "${process.env.EDP_PARITY_DELETE_CONNECTIONS}".`,
    );
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
      agencyWrites: process.env.EDP_PARITY_AGENCY_WRITES === '1',
      deletableConnections: deletable,
      target: 'service',
      answers,
    });
    return () =>
      judgeAnswers(answers, {
        canWrite: scratch !== undefined,
        agencyWrites: process.env.EDP_PARITY_AGENCY_WRITES === '1',
      });
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
    // Nothing written to a fresh sandbox outlives the run.
    agencyWrites: true,
    deletableConnections: 'any',
    target: 'fresh sandbox',
    answers,
  });
  return async () => {
    try {
      await judgeAnswers(answers, { canWrite: true, agencyWrites: true }, 'the fresh sandbox, thrown away with it');
    } finally {
      await sandbox.close();
    }
  };
}

/**
 * The answers the checks got, each judged against the OpenAPI document of the sandbox (the
 * contract's operations: statuses, and bodies where the contract shows them), whatever the
 * target; then a coverage line: the operations exercised, of all of them, and why each other
 * one was not; then one line per thing the checks left behind (`where` says where that is). A
 * violation fails the run, listed.
 */
async function judgeAnswers(dir: string, gates: RunGates, where = 'the target'): Promise<void> {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  const documenter = await startSandbox({ port: 0 });
  let doc: Parameters<typeof violationOf>[1];
  try {
    doc = (await (await fetch(`${documenter.url}/_sandbox/openapi.json`)).json()) as typeof doc;
  } finally {
    await documenter.close();
  }
  const patterns = OPERATIONS.map((o) => ({ o, regex: pathPattern(o.path) }));
  const exercised = new Set<string>();
  const violations = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ndjson'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
      const a = JSON.parse(line) as { method: string; path: string; status: number; text: string };
      const match = patterns.find((p) => p.o.method === a.method && p.regex.test(a.path));
      // A path no operation serves (a slashless path's 301, an unknown one's 404) is judged elsewhere.
      if (!match) continue;
      exercised.add(match.o.id);
      const v = violationOf({ method: a.method, route: match.o.path, status: a.status, body: a.text }, doc);
      if (v) violations.add(v);
    }
  }
  const left = leftBehindLines(dir);
  rmSync(dir, { recursive: true, force: true });
  const missing = OPERATIONS.filter((o) => !exercised.has(o.id));
  console.log(`\noperations exercised: ${exercised.size} of ${OPERATIONS.length}`);
  if (missing.length > 0) {
    console.log('not exercised:');
    for (const o of missing) console.log(`  ${o.id} (${o.method} ${o.path}): ${whyNotExercised(o, gates)}`);
  }
  if (left.length > 0) {
    console.log(`\nleft behind in ${where} (the contract offers no way to undo these):`);
    for (const line of left) console.log(`  ${line}`);
  }
  if (violations.size > 0) {
    // An error thrown here is only logged by vitest: the run is made to fail by its exit code.
    console.error(`answers outside the OpenAPI document:\n  ${[...violations].join('\n  ')}`);
    process.exitCode = 1;
  }
}

export interface ParityTarget {
  baseUrl: string;
  username: string;
  password: string;
  /** the workspace write checks may use, or null: write checks are skipped */
  scratchWorkspace: string | null;
  /** whether checks may write outside the scratch workspace: make a workspace, enable an agency recipe */
  agencyWrites: boolean;
  /** connections of the scratch workspace the checks may delete, or 'any' (a fresh sandbox) */
  deletableConnections: string[] | 'any';
  target: 'service' | 'fresh sandbox';
  /** the folder the checks' answers are kept in, to be judged at the end */
  answers: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    parity: ParityTarget;
  }
}
