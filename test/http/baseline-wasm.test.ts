import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BASELINE_FLAGS, withBaselineWasm } from '../../src/http/baseline-wasm.js';

describe('WebAssembly created at its baseline tier', () => {
  it('on Node 24 raises the tier-up budget for the creation only, then sets back its default', () => {
    const flags: string[] = [];
    const result = withBaselineWasm(
      () => {
        flags.push('create');
        return 'instance';
      },
      { major: 24, setFlags: (f) => flags.push(f), nodeOptions: '' },
    );
    expect(result).toBe('instance');
    expect(flags).toEqual(['--wasm-tiering-budget=2000000000', 'create', '--wasm-tiering-budget=13000000']);
  });

  it('sets the default back when the creation throws', () => {
    const flags: string[] = [];
    expect(() =>
      withBaselineWasm(
        () => {
          throw new Error('no WebAssembly');
        },
        { major: 24, setFlags: (f) => flags.push(f), nodeOptions: '' },
      ),
    ).toThrow('no WebAssembly');
    expect(flags).toEqual(['--wasm-tiering-budget=2000000000', '--wasm-tiering-budget=13000000']);
  });

  it('keeps the flag set until an asynchronous creation settles, resolved or rejected', async () => {
    const flags: string[] = [];
    const options = { major: 24, setFlags: (f: string) => flags.push(f), nodeOptions: '' };
    let resolve!: (value: string) => void;
    const created = withBaselineWasm(() => new Promise<string>((r) => (resolve = r)), options);
    expect(flags).toEqual(['--wasm-tiering-budget=2000000000']);
    resolve('jq');
    expect(await created).toBe('jq');
    expect(flags).toEqual(['--wasm-tiering-budget=2000000000', '--wasm-tiering-budget=13000000']);
    flags.length = 0;
    await expect(withBaselineWasm(() => Promise.reject(new Error('bad wasm')), options)).rejects.toThrow('bad wasm');
    expect(flags).toEqual(['--wasm-tiering-budget=2000000000', '--wasm-tiering-budget=13000000']);
  });

  it("leaves the flags alone on Node 20 and 22 (the launcher's --liftoff-only) and on a major it does not know", () => {
    const flags: string[] = [];
    for (const major of [20, 22, 99]) {
      expect(withBaselineWasm(() => major, { major, setFlags: (f) => flags.push(f), nodeOptions: '' })).toBe(major);
    }
    expect(flags).toEqual([]);
  });

  it('leaves the flag to the user who gave it to node', () => {
    const flags: string[] = [];
    const setFlags = (f: string) => flags.push(f);
    expect(withBaselineWasm(() => 1, { major: 24, setFlags, nodeOptions: ' --wasm-tiering-budget=5' })).toBe(1);
    expect(withBaselineWasm(() => 2, { major: 24, setFlags, nodeOptions: '--wasm_tiering_budget 5 ' })).toBe(2);
    expect(flags).toEqual([]);
    expect(withBaselineWasm(() => 3, { major: 24, setFlags, nodeOptions: '--max-old-space-size=512 ' })).toBe(3);
    expect(flags).toHaveLength(2);
  });

  it('sets back the defaults of the Node running the tests, as its V8 prints them', () => {
    const major = Number(process.versions.node.split('.')[0]);
    const entry = BASELINE_FLAGS[major];
    if (major === 20 || major === 22) {
      expect(entry).toBeUndefined();
      return;
    }
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    for (const flag of entry!.reset.split(' ')) {
      const name = /^--(?:no-)?([\w-]+)/.exec(flag)![1]!;
      const printed = new RegExp(`\\n  --${name} .*\\n\\s+type: \\w+\\s+default: (\\S+)`).exec(options);
      expect(printed, `the --${name} entry of node --v8-options`).not.toBeNull();
      expect(printed![1]).toBe(flag);
    }
  });
});
