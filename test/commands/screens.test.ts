import { beforeAll, describe, expect, it } from 'vitest';
import { stripStyle } from '../../src/output/output.js';
import { cli, useSandbox, type CliResult } from '../helpers.js';
import { FAST } from '../fixtures/files.js';

// Every list and detail view as a person sees it at a terminal: at 80 columns no line is longer
// than the window and no id is cut; colour only styles, so the text is the same without it;
// at 40 columns nothing runs past the window either. A new view is covered by adding it here.

const t = useSandbox({ buildSeconds: 0 });

let recipeId = '';
let endpointId = '';
let roleId = '';

beforeAll(async () => {
  // Something in the lists that the demo agency starts without.
  const deployed = await t.edp(
    'recipes',
    'deploy',
    '-w',
    '101',
    '--template',
    '4001',
    '--data-source',
    'google_ads',
    '--accounts',
    'all-active',
    '--json',
    ...FAST,
  );
  expect(deployed.code, deployed.stderr).toBe(0);
  recipeId = String(deployed.json()[0].recipe_id);
  const endpoint = await t.edp(
    'webhooks',
    'create',
    '-w',
    '101',
    '--url',
    'https://hooks.example.com/screens',
    '--events',
    'load_completed,recipe_activated',
    '--json',
  );
  expect(endpoint.code, endpoint.stderr).toBe(0);
  endpointId = String(endpoint.json().id);
  const role = await t.edp(
    'roles',
    'create',
    '--title',
    'Screens Reader',
    '--description',
    'Reads the reports that the screens of the tool show',
    '--permission',
    'DATA_TABLE:VIEW',
    '--json',
  );
  expect(role.code, role.stderr).toBe(0);
  roleId = String(role.json().id);
});

/** The views, as argv; ids made in beforeAll are filled in when the tests run. */
const views = (): string[][] => [
  ['workspaces', 'list'],
  ['workspaces', 'get', '101'],
  ['agency-recipes', 'list'],
  ['datasources', 'list', '-w', '101'],
  ['connections', 'list', '-w', '101', '--data-source', 'google_ads'],
  ['accounts', 'list', '-w', '101', '--connection', '1001'],
  ['links', 'list', '-w', '101', '--data-source', 'google_ads'],
  ['extract-templates', 'list', '-w', '101', '--data-source', 'google_ads'],
  ['extract-templates', 'get', '301', '-w', '101'],
  ['extracts', 'list', '-w', '101'],
  ['extracts', 'get', '40001', '-w', '101'],
  ['destinations', 'list', '-w', '101'],
  ['tables', 'list', '-w', '101'],
  ['tables', 'get', '5001', '-w', '101'],
  ['loads', 'list', '-w', '101'],
  ['loads', 'get', '8001', '-w', '101'],
  ['recipes', 'list', '-w', '101'],
  ['recipes', 'get', recipeId, '-w', '101'],
  ['recipes', 'status', '-w', '101'],
  ['recipes', 'templates', '-w', '101'],
  ['recipes', 'template', '4001', '-w', '101'],
  ['webhooks', 'list', '-w', '101'],
  ['webhooks', 'get', endpointId, '-w', '101'],
  ['webhooks', 'event-types', '-w', '101'],
  ['roles', 'list'],
  ['roles', 'get', roleId],
  ['roles', 'permissions'],
  ['roles', 'users', '1'],
  ['config', 'list'],
];

// "Now" is the sandbox's (its clock stands still): runs compared with each other read "in 14 days" alike, however long apart.
const at = (argv: string[], columns: number, color: boolean): Promise<CliResult> =>
  cli(t.sb, argv, {
    tty: true,
    columns,
    env: color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' },
    now: t.sb.store.clock.now(),
  });

/** Ids of what a view shows (`id` of each item or of the object), from its --json output. */
function idsOf(json: unknown): string[] {
  const items = Array.isArray(json) ? json : [json];
  return items
    .map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>).id : undefined))
    .filter((id) => typeof id === 'number' || (typeof id === 'object' && id !== null))
    .map(String);
}

describe('screens at a terminal', () => {
  it('at 80 columns: no line past the window, no id cut, the same text with colour and without', async () => {
    for (const argv of views()) {
      const name = argv.join(' ');
      const [plain, colour, json] = await Promise.all([
        at(argv, 80, false),
        at(argv, 80, true),
        cli(t.sb, [...argv, '--json']),
      ]);
      expect(plain.code, `${name}: ${plain.stderr}`).toBe(0);
      expect(colour.code, name).toBe(0);
      expect(plain.stdout, name).not.toMatch(/\u001b\[/);
      expect(stripStyle(colour.stdout), name).toBe(plain.stdout);
      expect(stripStyle(colour.stderr), name).toBe(plain.stderr);
      for (const line of plain.stdout.split('\n')) expect([...line].length, `${name}: ${line}`).toBeLessThanOrEqual(80);
      expect(plain.stdout, name).not.toMatch(/undefined|\[object Object\]/);
      for (const id of idsOf(json.json())) expect(plain.stdout, `${name}: id ${id}`).toMatch(new RegExp(`\\b${id}\\b`));
    }
  });

  it('at 40 columns: no line past the window', async () => {
    for (const argv of views()) {
      const r = await at(argv, 40, false);
      expect(r.code, argv.join(' ')).toBe(0);
      for (const line of r.stdout.split('\n'))
        expect([...line].length, `${argv.join(' ')}: ${line}`).toBeLessThanOrEqual(40);
    }
  });

  it('event names, the values `--events` takes, are never cut at 80 columns', async () => {
    const [r, json] = await Promise.all([
      at(['webhooks', 'event-types', '-w', '101'], 80, false),
      cli(t.sb, ['webhooks', 'event-types', '-w', '101', '--json']),
    ]);
    for (const e of json.json() as Array<{ event_name: string }>)
      expect(r.stdout).toMatch(new RegExp(`(^|\\s)${e.event_name}(\\s|$)`, 'm'));
  });

  it('a system role says read-only in words, with colour and without', async () => {
    const [plain, colour] = await Promise.all([at(['roles', 'list'], 80, false), at(['roles', 'list'], 80, true)]);
    expect(plain.stdout).toContain('system (read-only)');
    expect(stripStyle(colour.stdout)).toBe(plain.stdout);
  });
});
