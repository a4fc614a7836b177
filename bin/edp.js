#!/usr/bin/env node
import module from 'node:module';

// Node 22 and later keep compiled code between runs (no-op on 20).
module.enableCompileCache?.();

const { run } = await import('../dist/cli.js');
run();
