import { deliverRows, emitExtraction, historyPending } from './routes/extraction/model.js';
import type { ClockTimer } from './clock.js';
import type { Store } from './store.js';
import type { Extract } from './types.js';

/**
 * The extract run engine: a run starts, and after --build-seconds completes (the extract has
 * then delivered and its rows are in its data table), fails, or never completes, per the
 * account's or data source's `extraction_behavior`. An extract that is paused, whose
 * connection is deleted or whose account is inactive never delivers (such extractions cannot
 * deliver on their own: docs/contract-rules.md, Meaning of ready_to_work).
 */
export function canDeliver(store: Store, extract: Extract): boolean {
  if (extract.is_paused) return false;
  const connection = store.state.connections.find((c) => c.id === extract.connection_id);
  if (!connection || connection.deleted) return false;
  const account = store.state.accounts.find((a) => a.id === extract.account_entity_id);
  return !!account && account.is_active;
}

export function behaviorOf(store: Store, extract: Extract): string {
  const account = store.state.accounts.find((a) => a.id === extract.account_entity_id);
  const source = store.state.datasources.find((d) => d.name === extract.datasource_name);
  return account?.extraction_behavior ?? source?.extraction_behavior ?? 'delivers';
}

export type RunListener = (extract: Extract, outcome: 'completed' | 'failed') => void;

export function installPipeline(store: Store, onFinish: RunListener = () => undefined): { close(): void } {
  const timers = new Set<ClockTimer>();
  store.runExtract = (extract) => {
    if (!canDeliver(store, extract)) return;
    const runId = store.nextId('extract_run');
    extract.status = 'running';
    extract.last_run_at = store.clock.iso();
    extract.updated_at = extract.last_run_at;
    emitExtraction(store, 'regular_download_started', extract, runId);
    if (historyPending(extract)) emitExtraction(store, 'historical_download_started', extract, runId);
    const behavior = behaviorOf(store, extract);
    if (behavior === 'never_delivers') return;
    const ms = store.opts.buildSeconds * 1000 * (behavior === 'slow' ? 3 : 1);
    const timer = store.clock.setTimeout(() => {
      timers.delete(timer);
      if (!canDeliver(store, extract)) {
        extract.status = 'new';
        return;
      }
      const outcome = behavior === 'fails' ? 'failed' : 'completed';
      extract.status = outcome;
      if (outcome === 'completed') {
        deliverRows(store, extract);
        extract.delivered = true;
      }
      extract.updated_at = store.clock.iso();
      // extraction_completed carries no status or error (docs/contract-rules.md, Events rule 4), so
      // it is sent for a failed run as well.
      emitExtraction(store, 'extraction_completed', extract, runId);
      store.changed();
      onFinish(extract, outcome);
    }, ms);
    timers.add(timer);
  };
  return {
    close() {
      for (const t of timers) store.clock.clearTimeout(t);
      timers.clear();
    },
  };
}
