import { describe, expect, it } from 'vitest';
import type { BuildError, Recipe, RecipeTemplate } from '../../../src/api/recipes.js';
import {
  stepLabel,
  stepLine,
  stepReporter,
  stepStartText,
  type StepProgress,
} from '../../../src/commands/shared/deploy-steps.js';
import { ApiError, ExitError, NetworkError } from '../../../src/errors.js';
import { DEPLOY_STEPS, type StepEvent } from '../../../src/recipes/deploy.js';
import type { PollFault } from '../../../src/util/poll.js';

// The words of each event the deploy engine tells, as recipes deploy and apply show them after
// their mark and prefix: `✓ 3/7 created recipe 5`, `[101] … 6/7 build: extracting_data (4s)`.

const recipe = (over: Partial<Recipe> = {}): Recipe =>
  ({ recipe_id: 5, state: 'ready_to_work', degraded: false, error: null, ...over }) as Recipe;
const buildError = (code: string, message: string): BuildError => ({
  code,
  message,
  stage: 'extraction',
  data_source: null,
  occurred_at: null,
  details: {},
});
const noData = buildError('no_data_delivered', 'No extraction delivered data in time.');
const allFailed = buildError('all_sources_failed', 'Every data source of the recipe failed.');
const refused = (count: number): PollFault => ({
  error: new NetworkError('GET', '/x', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })),
  count,
  forMs: 1000,
});
const busy: PollFault = {
  error: new ApiError({ status: 503, code: 'service_unavailable', message: 'busy' }),
  count: 1,
  forMs: 0,
};
const shown = (e: StepEvent) => {
  const l = stepLine(e);
  return `${l.mark} ${stepLabel(l.n, l.text)}`;
};

describe('deployment steps in words', () => {
  it('each step as it begins, numbered 1 to 7 in the sequence', () => {
    expect(
      DEPLOY_STEPS.map((step, i) => stepLabel(i + 1, stepStartText({ step, phase: 'start', workspace: '101' }))),
    ).toEqual([
      '1/7 token for workspace 101',
      '2/7 template',
      '3/7 create the recipe',
      '4/7 connections and accounts',
      '5/7 configure',
      '6/7 build',
      '7/7 waiting for the extraction tables',
    ]);
  });

  it('what steps 1 to 5 did', () => {
    const template = { id: 4001, title: 'Paid Media Performance', build_mode: 'progressive' } as RecipeTemplate;
    expect([
      shown({ step: 'token', phase: 'done', workspace: '101' }),
      shown({ step: 'template', phase: 'done', template }),
      shown({ step: 'template', phase: 'done', template: { ...template, build_mode: '' } }),
      shown({ step: 'create', phase: 'done', recipe: recipe(), adopted: false }),
      shown({ step: 'create', phase: 'done', recipe: recipe(), adopted: true }),
      shown({
        step: 'connections',
        phase: 'done',
        additions: [
          { dataSource: 'google_ads', connectionId: '1001', accountIds: ['1', '2', '3'] },
          { dataSource: 'facebook_ads', connectionId: '1002', accountIds: ['4'] },
        ],
      }),
      shown({ step: 'configure', phase: 'done', addedAccounts: 5, changed: true }),
      shown({ step: 'configure', phase: 'done', addedAccounts: 0, changed: true }),
      shown({ step: 'configure', phase: 'done', addedAccounts: 0, changed: false }),
    ]).toEqual([
      'succeed 1/7 token for workspace 101',
      'succeed 2/7 template 4001 "Paid Media Performance" (progressive)',
      'succeed 2/7 template 4001 "Paid Media Performance"',
      'succeed 3/7 created recipe 5',
      'succeed 3/7 adopted recipe 5 (the workspace already had one from this template)',
      'succeed 4/7 google_ads: connection 1001, 3 account(s); facebook_ads: connection 1002, 1 account(s)',
      'succeed 5/7 configured: 5 account(s) added',
      'succeed 5/7 configured',
      'succeed 5/7 configuration already complete; nothing sent',
    ]);
  });

  it('the live text of a build: its state, and while reads fail, that they do', () => {
    const building = (r: Recipe, fault?: PollFault, step: 'build' | 'tables' = 'build') =>
      shown({ step, phase: 'building', recipe: r, fault });
    expect([
      building(recipe({ state: 'extracting_data' })),
      building(recipe({ state: null })),
      building(recipe({ state: 'ready_to_work', degraded: true })),
      building(recipe({ state: 'extracting_data' }), refused(1)),
      building(recipe({ state: 'extracting_data' }), refused(3)),
      building(recipe({ state: 'building_dependencies' }), busy),
      building(recipe({ state: 'extracting_data' }), undefined, 'tables'),
    ]).toEqual([
      'update 6/7 build: extracting_data',
      'update 6/7 build: not built',
      'update 6/7 build: ready_to_work (degraded)',
      'update 6/7 build: extracting_data; service unreachable (ECONNREFUSED), retrying',
      'update 6/7 build: extracting_data; service unreachable (ECONNREFUSED), retrying (3 failed reads in a row)',
      'update 6/7 build: building_dependencies; service failing (503 service_unavailable), retrying',
      'update 7/7 build: extracting_data',
    ]);
  });

  it("how step 6 ended: how the build came about, its state, and a failure's error", () => {
    const built = (build: 'started' | 'joined' | 'none', r: Recipe, rebuildsWhenTablesExist = false) =>
      shown({ step: 'build', phase: 'done', build, recipe: r, rebuildsWhenTablesExist });
    expect([
      built('started', recipe()),
      built('joined', recipe()),
      built('none', recipe()),
      built('none', recipe({ degraded: true })),
      built('started', recipe({ state: 'failed', error: allFailed })),
      built('started', recipe({ state: 'failed', error: noData }), true),
    ]).toEqual([
      'succeed 6/7 built: ready_to_work',
      'succeed 6/7 joined the running build: ready_to_work',
      'succeed 6/7 already built; no new build: ready_to_work',
      'warn 6/7 already built; no new build: ready_to_work (degraded)',
      'fail 6/7 built: failed: all_sources_failed (extraction): Every data source of the recipe failed.',
      'warn 6/7 built: failed: no_data_delivered (extraction): No extraction delivered data in time.; step 7 builds once more',
    ]);
  });

  it('step 7: waiting for the tables, then the build once more and how it ended', () => {
    expect([
      shown({ step: 'tables', phase: 'waiting', fault: refused(2) }),
      shown({ step: 'tables', phase: 'waiting', fault: undefined }),
      shown({ step: 'tables', phase: 'exist' }),
      shown({ step: 'tables', phase: 'done', recipe: recipe() }),
      shown({ step: 'tables', phase: 'done', recipe: recipe({ degraded: true }) }),
      shown({ step: 'tables', phase: 'done', recipe: recipe({ state: 'failed', error: allFailed }) }),
    ]).toEqual([
      'update 7/7 waiting for the extraction tables; service unreachable (ECONNREFUSED), retrying (2 failed reads in a row)',
      'update 7/7 waiting for the extraction tables',
      'update 7/7 extraction tables exist; building once more',
      'succeed 7/7 extraction tables exist; rebuilt: ready_to_work',
      'warn 7/7 extraction tables exist; rebuilt: ready_to_work (degraded)',
      'fail 7/7 extraction tables exist; rebuilt: failed: all_sources_failed (extraction): Every data source of the recipe failed.',
    ]);
  });

  it('a step that ended on an error shows it in full, each further line indented under the step', () => {
    const conflict = new ApiError({
      status: 409,
      code: 'no_active_destination',
      message: 'The workspace has no active destination.',
      method: 'POST',
      path: '/api/v3.1/automated-recipes/',
      traceId: 't-1',
    });
    expect(shown({ step: 'create', phase: 'failed', error: conflict })).toBe(
      [
        'fail 3/7 409 no_active_destination: The workspace has no active destination.',
        '    request: POST /api/v3.1/automated-recipes/',
        '    trace id: t-1',
      ].join('\n'),
    );
    expect(
      shown({ step: 'template', phase: 'failed', error: new ExitError('notFound', 'no template titled "Nothing"') }),
    ).toBe('fail 2/7 no template titled "Nothing"');
  });

  it("a reporter begins each step with its number and words, and draws the step's events with their marks", async () => {
    const calls: string[] = [];
    const report = stepReporter(async (n, text) => {
      calls.push(`begin ${n} ${text}`);
      const progress: StepProgress = {
        update: (t) => calls.push(`update ${t}`),
        succeed: (t) => calls.push(`succeed ${t}`),
        warn: (t) => calls.push(`warn ${t}`),
        fail: (t) => calls.push(`fail ${t}`),
      };
      return progress;
    });
    const tell = await report({ step: 'build', phase: 'start', workspace: '101' });
    tell({ step: 'build', phase: 'building', recipe: recipe({ state: 'extracting_data' }), fault: undefined });
    tell({
      step: 'build',
      phase: 'done',
      build: 'started',
      recipe: recipe({ degraded: true }),
      rebuildsWhenTablesExist: false,
    });
    expect(calls).toEqual(['begin 6 build', 'update build: extracting_data', 'warn built: ready_to_work (degraded)']);
  });
});
