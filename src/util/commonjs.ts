import { createRequire } from 'node:module';

/** Loads a built CommonJS file with a V8 code cache; `name` names its cache (bin/edp.js). */
export type CommonJsLoader = (file: string, name: string) => unknown;

let commonJsLoader: CommonJsLoader | undefined;

/** The launcher hands over its loader (bin/edp.js); without it, built files are required as usual. */
export function useCommonJsLoader(load: CommonJsLoader): void {
  commonJsLoader = load;
}

/**
 * A built CommonJS file of dist (undici, conf), through the launcher's loader when there is one:
 * a run then skips parsing and compiling what the previous runs compiled.
 */
export function requireBuilt(file: string, name: string): unknown {
  return commonJsLoader ? commonJsLoader(file, name) : createRequire(file)(file);
}
