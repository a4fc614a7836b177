import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { APPLY_ROW_KEYS, endpointsOf } from '../../fixtures/fleet.js';

/**
 * Apply's result rows end with a note that names the command to run next; at a terminal it is
 * printed whole, whatever the window's width; piped, each row stays one line with its note.
 */

// Builds take 60 s of the sandbox's clock, which stands still: a build is under way until Ctrl-C.
const t = useSandbox({ buildSeconds: 60 }, [], { each: true });
beforeEach(() => resetRecipes(t.sb));
const file = useFiles('edp-apply-notes-');

const RECIPE = `workspaces: [101]
recipes:
  - template: 4001
    sources:
      - data_source: google_ads
        accounts: [all-active]
`;
const WEBHOOK_URL = 'https://hooks.example.com/a-rather-long-path/for/notes-that-would-not-fit';
const WEBHOOK = `workspaces: [103]
webhooks:
  - url: ${WEBHOOK_URL}
    events: [load_completed]
`;

const interrupt = () => Object.assign(new Error('interrupted'), { name: 'InterruptedError' });

/** `apply` stopped (as Ctrl-C stops it) once the recipe's build is being waited on. */
async function interruptedApply(opts: { tty?: boolean; columns?: number }, flags: string[] = []) {
  const stop = new AbortController();
  return cli(t.sb, ['apply', '-f', file('recipe.yaml', RECIPE), '--yes', '--no-color', ...FAST, ...flags], {
    ...opts,
    signal: stop.signal,
    onStderr: (all) => {
      if (/6\/7 build: extracting_data/.test(all) && !stop.signal.aborted) stop.abort(interrupt());
    },
  });
}

const recipeId = () => String(t.sb.store.state.recipes.find((r) => r.workspace_id === 101 && !r.intermediate)!.id);

describe('apply: the notes of its rows', () => {
  for (const columns of [80, 200]) {
    it(`Ctrl-C at a ${columns}-column terminal: the note's poll command is printed whole`, async () => {
      const r = await interruptedApply({ tty: true, columns });
      expect(r.code).toBe(130);
      const id = recipeId();
      expect(r.stdout).toContain(
        `workspace 101, recipe 4001: interrupted: stopped by Ctrl-C or a stop signal; stopped waiting; any build of recipe ${id} continues on the service; follow it with \`edp recipes poll ${id} -w 101\``,
      );
      // The table itself fits the window; only the notes below it are as long as they need.
      const table = r.stdout.split('\n\n')[0]!.split('\n');
      expect(table[0]).toMatch(/^WORKSPACE\s+RESOURCE/);
      expect(table[0]).not.toContain('NOTE');
      for (const line of table) expect(line.length).toBeLessThanOrEqual(columns);
    });
  }

  it('piped: one line per row, the note whole at its end', async () => {
    const r = await interruptedApply({});
    expect(r.code).toBe(130);
    const id = recipeId();
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      `101\trecipe\t${id}\t4001\tcreate, configure, build\tinterrupted\tinterrupted: stopped by Ctrl-C or a stop signal; stopped waiting; any build of recipe ${id} continues on the service; follow it with \`edp recipes poll ${id} -w 101\``,
    ]);
  });

  it('--json: the note is where a row keeps it, after its error and before its wave', async () => {
    const r = await interruptedApply({}, ['--json', '--waves', '1']);
    expect(r.code).toBe(130);
    const id = recipeId();
    const [row] = r.json();
    expect(Object.keys(row)).toEqual([...APPLY_ROW_KEYS, 'note', 'wave']);
    expect(row.note).toBe(
      `stopped waiting; any build of recipe ${id} continues on the service; follow it with \`edp recipes poll ${id} -w 101\``,
    );
  });

  it('an endpoint left unverified: the verify command is readable whole at a wide terminal', async () => {
    const r = await cli(t.sb, ['apply', '-f', file('webhook.yaml', WEBHOOK), '--yes'], { tty: true, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const id = endpointsOf(t.sb, 103)[0].id;
    expect(r.stdout).toContain(`then \`edp webhooks verify ${id} -w 103\` (or apply --verify)`);
  });

  it('--json: a new endpoint keeps its secret, then its note, then its wave', async () => {
    const r = await cli(t.sb, ['apply', '-f', file('webhook.yaml', WEBHOOK), '--yes', '--json', '--waves', '1']);
    expect(r.code, r.stderr).toBe(0);
    const [row] = r.json();
    const id = endpointsOf(t.sb, 103)[0].id;
    expect(Object.keys(row)).toEqual([...APPLY_ROW_KEYS, 'secret', 'note', 'wave']);
    expect(row.note).toBe(
      `it receives no event until verified: run a receiver with the secret at the url, then \`edp webhooks verify ${id} -w 103\` (or apply --verify)`,
    );
  });

  it('with --secrets-file and no --verify: where the secret went, then how to verify, in one note', async () => {
    const fleet = file('webhook.yaml', WEBHOOK);
    const secrets = join(dirname(fleet), 'secrets.json');
    const r = await cli(t.sb, ['apply', '-f', fleet, '--yes', '--secrets-file', secrets]);
    expect(r.code, r.stderr).toBe(0);
    const id = endpointsOf(t.sb, 103)[0].id;
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      `103\twebhook\t${id}\t${WEBHOOK_URL}\tcreate\tunverified\tsecret written to ${secrets}; it receives no event until verified: run a receiver with the secret at the url, then \`edp webhooks verify ${id} -w 103\` (or apply --verify)`,
    ]);
  });
});
