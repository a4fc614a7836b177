import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIERING_BUDGET, RAISED_TIERING_BUDGET, withBaselineWasm } from '../../src/http/baseline-wasm.js';

describe("undici's parser created with V8's tier-up budget raised", () => {
  it('raises the budget for the creation only, then sets back the default of this Node major', () => {
    const flags: string[] = [];
    const result = withBaselineWasm(
      () => {
        flags.push('create');
        return 'instance';
      },
      { major: 22, setFlags: (f) => flags.push(f) },
    );
    expect(result).toBe('instance');
    expect(flags).toEqual([
      `--wasm-tiering-budget=${RAISED_TIERING_BUDGET}`,
      'create',
      '--wasm-tiering-budget=13000000',
    ]);
  });

  it('sets the default back when the creation throws', () => {
    const flags: string[] = [];
    expect(() =>
      withBaselineWasm(
        () => {
          throw new Error('no WebAssembly');
        },
        { major: 20, setFlags: (f) => flags.push(f) },
      ),
    ).toThrow('no WebAssembly');
    expect(flags).toEqual([`--wasm-tiering-budget=${RAISED_TIERING_BUDGET}`, '--wasm-tiering-budget=1800000']);
  });

  it('keeps the budget raised until an asynchronous creation settles, resolved or rejected', async () => {
    const flags: string[] = [];
    const setFlags = (f: string) => flags.push(f);
    let resolve!: (value: string) => void;
    const created = withBaselineWasm(() => new Promise<string>((r) => (resolve = r)), { major: 24, setFlags });
    expect(flags).toEqual([`--wasm-tiering-budget=${RAISED_TIERING_BUDGET}`]);
    resolve('jq');
    expect(await created).toBe('jq');
    expect(flags).toEqual([`--wasm-tiering-budget=${RAISED_TIERING_BUDGET}`, '--wasm-tiering-budget=13000000']);
    flags.length = 0;
    await expect(
      withBaselineWasm(() => Promise.reject(new Error('bad wasm')), { major: 24, setFlags }),
    ).rejects.toThrow('bad wasm');
    expect(flags).toEqual([`--wasm-tiering-budget=${RAISED_TIERING_BUDGET}`, '--wasm-tiering-budget=13000000']);
  });

  it('leaves the flags alone on a Node major whose default it does not know', () => {
    const flags: string[] = [];
    expect(withBaselineWasm(() => 1, { major: 99, setFlags: (f) => flags.push(f) })).toBe(1);
    expect(flags).toEqual([]);
  });

  it('leaves the budget to the user who gave node one', () => {
    const flags: string[] = [];
    const setFlags = (f: string) => flags.push(f);
    expect(withBaselineWasm(() => 1, { major: 22, setFlags, nodeOptions: ' --wasm-tiering-budget=5' })).toBe(1);
    expect(withBaselineWasm(() => 2, { major: 22, setFlags, nodeOptions: '--wasm_tiering_budget 5 ' })).toBe(2);
    expect(flags).toEqual([]);
    expect(withBaselineWasm(() => 3, { major: 22, setFlags, nodeOptions: '--max-old-space-size=512 ' })).toBe(3);
    expect(flags).toHaveLength(2);
  });

  it('knows the default of the Node running the tests, as its V8 prints it', () => {
    const major = Number(process.versions.node.split('.')[0]);
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    const entry = /--wasm-tiering-budget \([^)]*\)\s+type: int\s+default: --wasm-tiering-budget=(\d+)/.exec(options);
    expect(entry, 'the --wasm-tiering-budget entry of node --v8-options').not.toBeNull();
    expect(DEFAULT_TIERING_BUDGET[major]).toBe(Number(entry![1]));
  });
});
