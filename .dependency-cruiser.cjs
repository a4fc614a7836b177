/**
 * The import graph of src/, judged by dependency-cruiser (`npx depcruise src`; the test
 * test/tools/imports.test.ts runs it, and so does `npm run lint`). Imports point down:
 *
 *   src/cli.ts -> src/commands -> the domain (src/fleet, src/recipes, src/accounts, src/roles),
 *   src/output and src/context.ts -> src/api -> src/config, src/http and src/contract -> src/util
 *   -> src/errors.ts
 *
 * and the emulator (src/sandbox) stands beside the client: only its command starts it, and it
 * uses the contract and util, never the client's code. Type-only imports count like any other.
 */

/**
 * Folders with cycles inside them, kept on purpose or not yet taken apart. A cycle that leaves
 * its folder is refused whatever this list says (no-circular-across-folders).
 */
const CYCLES_WITHIN = [
  // A command's command.ts loads its verbs lazily (`import('./list.js')`) and each verb takes
  // the options type its command.ts declares (docs/development.md, the command tree);
  // src/commands/shared/help.ts loads environment-help.ts lazily, which uses its wrap().
  '^src/commands/[^/]+/',
  // The sandbox's store keeps its --state file through persistence.ts, which reads the store's type.
  '^src/sandbox/(store|persistence)[.]ts$',
  // The fleet plan (plan.ts, plan/*) and the fleet file and saved plan it reads and is read by.
  '^src/fleet/(plan|file|saved-plan)[.]ts$',
  '^src/fleet/plan/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular-across-folders',
      comment: 'A cycle through two folders of src/ (or through a file at its top) ties those layers together.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { circular: true, via: { pathNot: '^src/$1/' } },
    },
    {
      name: 'no-circular-at-the-top',
      comment: 'The files at the top of src/ (cli.ts, context.ts, errors.ts, …) are in no cycle.',
      severity: 'error',
      from: { path: '^src/[^/]+$' },
      to: { circular: true },
    },
    {
      name: 'no-circular',
      comment: 'A cycle within a folder, outside the folders listed in CYCLES_WITHIN.',
      severity: 'error',
      from: { path: '^src/', pathNot: CYCLES_WITHIN },
      to: { circular: true },
    },
    {
      name: 'commands-only-from-cli',
      comment: 'Nothing imports from src/commands/ but src/cli.ts (docs/development.md).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/commands/', '^src/cli[.]ts$'] },
      to: { path: '^src/commands/' },
    },
    {
      name: 'domain-makes-no-words',
      comment:
        'The domain takes a Service, never a command context, and returns data and errors: what a person reads is made by the commands and src/output.',
      severity: 'error',
      from: { path: '^src/(fleet|recipes|accounts|roles)/' },
      to: { path: ['^src/(commands|output)/', '^src/context[.]ts$'] },
    },
    {
      name: 'api-points-down',
      comment: 'src/api (the only code that talks HTTP) rests on config, http, contract and util.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/', pathNot: ['^src/(api|config|http|contract|util)/', '^src/errors[.]ts$'] },
    },
    {
      name: 'config-points-down',
      comment: 'src/config (profiles, settings, the token cache) never imports src/api or anything above it.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: ['^src/(config|util)/', '^src/(errors|global-options)[.]ts$'] },
    },
    {
      name: 'http-points-down',
      comment: 'src/http (undici, proxies) rests on util alone.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/', pathNot: ['^src/(http|util)/', '^src/errors[.]ts$'] },
    },
    {
      name: 'contract-points-down',
      comment:
        "The contract's facts are below everything that uses them: src/contract imports only itself and src/util.",
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/(contract|util)/' },
    },
    {
      name: 'util-is-the-floor',
      comment:
        'src/util imports nothing of src/ but src/util and the error classes every layer throws (src/errors.ts).',
      severity: 'error',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: ['^src/util/', '^src/errors[.]ts$'] },
    },
    {
      name: 'errors-is-a-leaf',
      comment: 'src/errors.ts, below src/util, imports nothing of src/.',
      severity: 'error',
      from: { path: '^src/errors[.]ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'sandbox-only-from-its-command',
      comment: 'The emulator is started by `edp sandbox` alone: no other code imports src/sandbox.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/sandbox/', '^src/commands/sandbox/'] },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'sandbox-beside-the-client',
      comment:
        "The emulator uses the contract's facts, never the client's code, so that it cannot share the client's mistakes.",
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: ['^src/(sandbox|contract|util)/', '^src/(errors|version)[.]ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
