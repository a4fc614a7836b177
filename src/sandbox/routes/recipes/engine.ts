import { canDeliver } from '../../pipeline.js';
import type { ClockTimer } from '../../clock.js';
import type { Store } from '../../store.js';
import type { Extract } from '../../types.js';
import { buildError } from './build-errors.js';
import type { RecipeState } from '../../../contract/recipes.js';
import { emitDataTable, emitExtraction } from '../../payloads.js';
import { recipeEventData, transformationEventData } from './events.js';
import {
  nextRecipeId,
  viewNameOf,
  type BuildError,
  type NotDelivered,
  type Recipe,
  type RecipeTemplate,
  type SourceEntry,
} from './model.js';

/** Entries of `not_delivered` kept per source (docs/contract-rules.md, Limits). */
const NOT_DELIVERED_LIMIT = 100;

export interface BuildEngine {
  /** Starts a build in the background (the caller has checked the preconditions). */
  start(recipe: Recipe): void;
  /** Picks up builds that were running when the state was saved. */
  resume(): void;
  close(): void;
}

/**
 * Runs recipe builds: `extracting_data` -> `building_dependencies` -> `ready_to_work` | `failed`.
 *
 * The build (docs/contract-rules.md, Meaning of ready_to_work) creates or reuses one extraction per
 * configured account and extraction template, waits for those that can deliver (up to a limit),
 * leaves out those that cannot (paused, connection deleted, account disabled, reused with nothing
 * running) and builds from what delivered. Each state lasts --build-seconds at least; the wait for
 * extractions ends at twice that, so a `slow` extraction (three times) is left out.
 */
export function createBuildEngine(store: Store): BuildEngine {
  const timers = new Set<ClockTimer>();
  const s = () => store.state;
  // Zero is allowed: every state then ends at the same moment of the clock, in order.
  const stepMs = () => Math.max(0, store.opts.buildSeconds * 1000);

  const later = (ms: number, fn: () => void) => {
    const timer = store.clock.setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  /** The build `run` of `recipeId` is still the current one (not deleted, not superseded). */
  const current = (recipeId: string, run: number): Recipe | undefined => {
    const recipe = s().recipes.find((r) => r.id === recipeId);
    return recipe && recipe.build?.run === run ? recipe : undefined;
  };

  const templateOf = (recipe: Recipe) => s().recipe_templates.find((t) => t.id === recipe.template_id);

  function setState(recipe: Recipe, state: RecipeState): void {
    recipe.state = state;
    for (const id of recipe.intermediate_ids) {
      const dep = s().recipes.find((r) => r.id === id);
      if (!dep?.intermediate) continue;
      dep.state = state;
      dep.error = recipe.error;
      dep.degraded = recipe.degraded;
      dep.not_delivered_reasons = recipe.not_delivered_reasons;
      dep.sources = recipe.sources;
      dep.last_build_at = recipe.last_build_at;
    }
    store.changed();
  }

  function fail(recipe: Recipe, error: BuildError): void {
    recipe.error = error;
    // degraded describes a build that used less than everything configured; a failed one built nothing
    recipe.degraded = false;
    setState(recipe, 'failed');
  }

  /** The recipes a template is built on, one per child template in the workspace: reused when present. */
  function ensureIntermediates(recipe: Recipe, template: RecipeTemplate): void {
    for (const childId of template.children) {
      const child = s().recipe_templates.find((t) => t.id === childId);
      if (!child) continue;
      let dep = s().recipes.find((r) => r.workspace_id === recipe.workspace_id && r.template_id === childId);
      if (!dep) {
        const now = store.clock.iso();
        const connections = recipe.connections
          .filter((c) => child.data_sources.includes(c.connection_data_source))
          .map((c) => ({ ...c, account_ids: [...c.account_ids] }));
        dep = {
          id: nextRecipeId(store),
          workspace_id: recipe.workspace_id,
          template_id: childId,
          title: child.title,
          view_name: viewNameOf(child.title),
          datatable_id: store.nextId('data_table'),
          state: null,
          error: null,
          created_at: now,
          configured_at: now,
          last_build_at: null,
          degraded: false,
          not_delivered_reasons: [],
          sources: [],
          data_sources: [...new Set(connections.map((c) => c.connection_data_source))],
          connections,
          sync_from_date: recipe.sync_from_date,
          steps_revision: child.revision,
          intermediate_ids: [],
          intermediate: true,
          build: null,
        };
        s().recipes.push(dep);
        s().data_tables.push({
          id: dep.datatable_id,
          workspace_id: dep.workspace_id,
          title: dep.title,
          sql_name: dep.view_name,
          datasource_name: null,
          created_at: now,
        });
      }
      if (!recipe.intermediate_ids.includes(dep.id)) recipe.intermediate_ids.push(dep.id);
    }
  }

  /**
   * One extraction per configured account and extraction template of the recipe template,
   * reused when the workspace already has it; new ones start a run. Returns undefined when a
   * needed extraction template does not exist (`extractions_not_created`).
   */
  function ensureExtractions(recipe: Recipe, template: RecipeTemplate): number[] | undefined {
    const ids: number[] = [];
    const now = store.clock.iso();
    for (const conn of recipe.connections) {
      for (const kind of template.extract_kinds) {
        const sqlName = `${conn.connection_data_source}_${kind}`;
        const et = s().extract_templates.find(
          (t) => t.agency_id === null && t.datasource_name === conn.connection_data_source && t.sql_name === sqlName,
        );
        if (!et) return undefined;
        let table = s().data_tables.find((d) => d.workspace_id === recipe.workspace_id && d.sql_name === et.sql_name);
        for (const accountId of conn.account_ids) {
          const existing = s().extracts.find(
            (e) =>
              e.workspace_id === recipe.workspace_id &&
              e.connection_id === conn.connection_id &&
              e.account_entity_id === accountId &&
              e.template_id === et.id,
          );
          if (existing) {
            ids.push(existing.id);
            continue;
          }
          if (!table) {
            table = {
              id: store.nextId('data_table'),
              workspace_id: recipe.workspace_id,
              title: et.title,
              sql_name: et.sql_name,
              datasource_name: et.datasource_name,
              created_at: now,
            };
            s().data_tables.push(table);
            emitDataTable(store, 'data_table_created', table);
          }
          const account = s().accounts.find((a) => a.id === accountId);
          const extract: Extract = {
            id: store.nextId('extract'),
            workspace_id: recipe.workspace_id,
            connection_id: conn.connection_id,
            datasource_name: conn.connection_data_source,
            account_entity_id: accountId,
            account_embedded_id: account ? account.id : null,
            template_id: et.id,
            data_table_id: table.id,
            title: `${et.title} - ${account?.title ?? accountId}`,
            is_paused: false,
            pause_reason: null,
            status: 'new',
            delivered: false,
            last_run_at: null,
            sync_historical_data: recipe.sync_from_date,
            created_at: now,
            updated_at: now,
          };
          s().extracts.push(extract);
          ids.push(extract.id);
          emitExtraction(store, 'extraction_created', extract);
          emitDataTable(store, 'extraction_added', table);
          store.runExtract(extract);
        }
      }
    }
    return ids;
  }

  /** Waited for: can deliver on its own and has a run going. */
  const waitable = (e: Extract) => !e.delivered && e.status === 'running' && canDeliver(store, e);

  function reasonOf(e: Extract): string {
    if (e.status === 'failed') return 'extraction_failed';
    const connection = s().connections.find((c) => c.id === e.connection_id);
    if (!connection || connection.deleted) return 'connection_deleted';
    const account = s().accounts.find((a) => a.id === e.account_entity_id);
    if (!account || !account.is_active) return 'account_disabled';
    if (e.is_paused) return e.pause_reason ?? 'paused';
    if (e.status === 'running') return 'timed_out';
    return 'not_running';
  }

  const kindOf = (e: Extract) => {
    const et = s().extract_templates.find((t) => t.id === e.template_id);
    return et ? et.sql_name.slice(e.datasource_name.length + 1) : '';
  };

  function start(recipe: Recipe): void {
    const template = templateOf(recipe)!;
    const run = (recipe.build?.run ?? 0) + 1;
    const forced = s().recipe_faults.build_errors[recipe.id];
    delete s().recipe_faults.build_errors[recipe.id];
    const now = store.clock.iso();
    recipe.error = null;
    recipe.degraded = false;
    recipe.not_delivered_reasons = [];
    recipe.sources = [];
    recipe.last_build_at = now;
    recipe.build = { run, extraction_ids: [] };
    ensureIntermediates(recipe, template);
    setState(recipe, 'extracting_data');
    store.emit(
      'transformation_started',
      recipe.workspace_id,
      'Transformation',
      transformationEventData(store, recipe, 'manual', run),
    );
    const ids = ensureExtractions(recipe, template);
    if (!ids) {
      later(stepMs(), () => {
        const r = current(recipe.id, run);
        if (r) fail(r, buildError('extractions_not_created', store.clock.iso()));
      });
      return;
    }
    recipe.build.extraction_ids = ids;
    store.changed();
    const started = store.clock.now();
    const tick = () => {
      const r = current(recipe.id, run);
      if (!r) return;
      const elapsed = store.clock.now() - started;
      const extracts = r
        .build!.extraction_ids.map((id) => s().extracts.find((e) => e.id === id))
        .filter((e): e is Extract => !!e);
      if (elapsed < stepMs() || (elapsed < 2 * stepMs() && extracts.some(waitable))) {
        later(Math.max(5, stepMs() / 10), tick);
        return;
      }
      finishExtraction(r, run, extracts, forced);
    };
    later(stepMs(), tick);
  }

  function finishExtraction(
    recipe: Recipe,
    run: number,
    extracts: Extract[],
    forced: (Partial<BuildError> & { code: string }) | undefined,
  ): void {
    const at = store.clock.iso();
    const template = templateOf(recipe)!;
    if (forced && (forced.stage ?? buildError(forced.code, at).stage) === 'extraction') {
      fail(recipe, buildError(forced.code, at, forced));
      return;
    }
    const sources: SourceEntry[] = recipe.data_sources.map((ds) => {
      const own = extracts.filter((e) => e.datasource_name === ds);
      const delivered = own.filter((e) => e.delivered);
      const missing: NotDelivered[] = own
        .filter((e) => !e.delivered)
        .map((e) => ({ extraction_id: e.id, account_id: e.account_entity_id, reason: reasonOf(e) }));
      // A build fails when none delivered for one of the template's extraction templates
      // (docs/contract-rules.md, Meaning of ready_to_work).
      const kindMissing = template.extract_kinds.find((k) => !delivered.some((e) => kindOf(e) === k));
      const failed = delivered.length === 0 || kindMissing !== undefined;
      const entry: SourceEntry = {
        data_source: ds,
        status: failed ? 'failed' : missing.length > 0 ? 'partial' : 'delivered',
        not_delivered_count: missing.length,
        not_delivered: missing.slice(0, NOT_DELIVERED_LIMIT),
        error: null,
      };
      if (failed) {
        const message =
          delivered.length === 0
            ? `No extraction of ${ds} delivered data in time.`
            : `No extraction of ${ds} delivered for the extraction template ${kindMissing}.`;
        entry.error = buildError('no_data_delivered', at, { data_source: ds, message });
      }
      return entry;
    });
    recipe.sources = sources;
    recipe.not_delivered_reasons = [...new Set(sources.flatMap((x) => x.not_delivered.map((n) => n.reason)))].sort();
    recipe.degraded = sources.some((x) => x.not_delivered_count > 0 || x.status === 'failed');
    const failedSources = sources.filter((x) => x.status === 'failed');
    const delivered = extracts.filter((e) => e.delivered);
    const progressive = template.build_mode === 'progressive';
    if (delivered.length === 0) {
      // Runs that all failed will not recover by waiting; data still on its way may (docs/contract-rules.md,
      // Deployment sequence step 7).
      const allRunsFailed = extracts.length > 0 && extracts.every((e) => e.status === 'failed');
      fail(recipe, buildError(progressive && allRunsFailed ? 'all_sources_failed' : 'no_data_delivered', at));
      return;
    }
    const kindMissing = template.extract_kinds.find((k) => !delivered.some((e) => kindOf(e) === k));
    if (kindMissing !== undefined) {
      fail(
        recipe,
        buildError('no_data_delivered', at, {
          message: `No extraction delivered for the extraction template ${kindMissing}.`,
        }),
      );
      return;
    }
    if (!progressive && failedSources.length > 0) {
      const first = failedSources[0]!;
      fail(
        recipe,
        buildError('no_data_delivered', at, { data_source: first.data_source, message: first.error!.message }),
      );
      return;
    }
    if (failedSources.length === sources.length) {
      fail(recipe, buildError('all_sources_failed', at));
      return;
    }
    setState(recipe, 'building_dependencies');
    later(stepMs(), () => {
      const r = current(recipe.id, run);
      if (r) finishBuild(r, run, forced);
    });
  }

  function finishBuild(
    recipe: Recipe,
    run: number,
    forced: (Partial<BuildError> & { code: string }) | undefined,
  ): void {
    const at = store.clock.iso();
    if (forced) {
      fail(recipe, buildError(forced.code, at, forced));
      return;
    }
    const taken =
      s().recipes.some(
        (r) => r.id !== recipe.id && r.workspace_id === recipe.workspace_id && r.view_name === recipe.view_name,
      ) ||
      s().recipe_view_claims.some(
        (c) => c.workspace_id === recipe.workspace_id && c.view_name === recipe.view_name && c.recipe_id !== recipe.id,
      );
    if (taken) {
      fail(recipe, buildError('view_name_taken', at));
      return;
    }
    setState(recipe, 'ready_to_work');
    store.emit('transformation_completed', recipe.workspace_id, 'Transformation', {
      ...transformationEventData(store, recipe, 'manual', run),
      mcdm_recipe_title: '',
    });
    store.emit(
      'recipe_activated',
      recipe.workspace_id,
      'Recipe',
      recipeEventData(recipe, { description: `Recipe "${recipe.title}" is ready to work.` }),
    );
  }

  function resume(): void {
    for (const recipe of s().recipes) {
      if (recipe.intermediate || !recipe.build) continue;
      if (recipe.state === 'extracting_data') {
        const run = recipe.build.run;
        later(stepMs(), () => {
          const r = current(recipe.id, run);
          if (!r) return;
          const extracts = r
            .build!.extraction_ids.map((id) => s().extracts.find((e) => e.id === id))
            .filter((e): e is Extract => !!e);
          finishExtraction(r, run, extracts, undefined);
        });
      } else if (recipe.state === 'building_dependencies') {
        const run = recipe.build.run;
        later(stepMs(), () => {
          const r = current(recipe.id, run);
          if (r) finishBuild(r, run, undefined);
        });
      }
    }
  }

  return {
    start,
    resume,
    close() {
      for (const t of timers) store.clock.clearTimeout(t);
      timers.clear();
    },
  };
}
