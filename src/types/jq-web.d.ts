/** jq-web: jq 1.7 compiled to WebAssembly; the module resolves to its runner once the wasm is compiled. */
declare module 'jq-web' {
  export interface JqRunner {
    /** Runs `jq FLAGS FILTER` on `input` (JSON texts); resolves to stdout; throws with `exitCode` and `stderr` when jq exits non-zero. */
    raw(input: string, filter: string, flags?: string[]): string | undefined;
  }
  const runner: Promise<JqRunner>;
  export default runner;
}
