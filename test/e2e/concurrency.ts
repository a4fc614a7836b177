import { vi } from 'vitest';

/**
 * How many tests of a built-tool file run at once, for a file whose tests are concurrent: call
 * it at the top of the file. Their processes spend part of their time waiting (for the sandbox,
 * the terminal, a process start), so two or three at once fill the gaps; more buys nothing on
 * two cores shared with another test file and only stretches each test toward its timeout.
 */
export function limitConcurrentTests(): void {
  vi.setConfig({ maxConcurrency: 3 });
}
