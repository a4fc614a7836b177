#!/usr/bin/env node
import module from 'node:module';
import { setFlagsFromString } from 'node:v8';

// Node 22 and later keep compiled code between runs (no-op on 20).
module.enableCompileCache?.();

// The HTTP client parses responses with WebAssembly. V8's optimizing tier compiles it again
// on background threads, and the process waits for that work at exit (~70 ms on a short
// command); the baseline compiler alone is fast enough for response parsing.
setFlagsFromString('--liftoff-only');

const { run } = await import('../dist/cli.js');
run();
