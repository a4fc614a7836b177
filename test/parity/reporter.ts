import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';

/**
 * Prints one line per contract rule checked, `PASS  area: rule (contract reference)` (or FAIL,
 * SKIP with the reason), the failure's message under a FAIL line, and last the summary line
 * `N passed, N failed, N skipped`. A file whose setup failed counts as one failure, so that a
 * broken run never reads as green.
 */
export default class ParityReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  private target = '';

  private write(line: string): void {
    process.stdout.write(`${line}\n`);
  }

  onInit(): void {
    this.target = process.env.EDP_BASE_URL
      ? `${process.env.EDP_BASE_URL} (${process.env.EDP_PARITY_WORKSPACE ? `scratch workspace ${process.env.EDP_PARITY_WORKSPACE}` : 'read-only'})`
      : 'a fresh sandbox';
    this.write(`Parity checks against ${this.target}`);
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const test of testModule.children.allTests()) this.report(test);
    // A failed beforeAll leaves its tests skipped: the hook's error is the suite's, and counts.
    for (const suite of testModule.children.allSuites()) {
      for (const error of suite.errors()) this.fail(`${suite.fullName.replace(/ > /g, ': ')}: setup`, error);
    }
    for (const error of testModule.errors()) this.fail(`${testModule.relativeModuleId}: setup`, error);
  }

  private report(test: TestCase): void {
    const name = test.fullName.replace(/ > /g, ': ');
    const result = test.result();
    if (result.state === 'passed') {
      this.passed++;
      this.write(`PASS  ${name}`);
    } else if (result.state === 'failed') {
      this.failed++;
      this.write(`FAIL  ${name}`);
      for (const error of result.errors) this.detail(error);
    } else {
      this.skipped++;
      this.write(`SKIP  ${name}${result.state === 'skipped' && result.note ? ` (${result.note})` : ''}`);
    }
  }

  private fail(name: string, error: SerializedError): void {
    this.failed++;
    this.write(`FAIL  ${name}`);
    this.detail(error);
  }

  private detail(error: { message?: string; diff?: string }): void {
    const text = `${error.message ?? String(error)}${error.diff ? `\n${error.diff}` : ''}`.replace(
      /\u001b\[[0-9;]*m/g,
      '',
    );
    for (const line of text.split('\n').slice(0, 12)) this.write(`        ${line}`);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const error of unhandledErrors) this.fail('unhandled error', error);
    this.write(`${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`);
  }
}
