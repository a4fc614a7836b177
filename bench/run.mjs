// `npm run bench`: every benchmark in this folder, one after the other (they share two cores
// badly), each printing its own ratios.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const benches = ['startup', 'binary', 'paging', 'fleet', 'fleet-plan', 'fleet-scale', 'listen', 'sandbox'].filter((b) =>
  existsSync(`bench/${b}.mjs`),
);
let failed = 0;
for (const name of benches) {
  console.log(`\n== ${name}`);
  const r = spawnSync(process.execPath, [`bench/${name}.mjs`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
