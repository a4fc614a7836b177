import { suggest } from '../../util/suggest.js';
import { listDataSources } from '../../api/datasources.js';
import type { Service } from '../../api/service.js';
import { ApiError, withHint } from '../../errors.js';
import { collect } from '../../util/collect.js';
import { didYouMean } from '../../util/did-you-mean.js';

/**
 * Runs `work`, which names data source `name` in its path. When the service refuses it (400
 * for an unknown data source; 404 where the contract answers so) and the workspace's data
 * source list does not hold the name, the error gains a hint with the closest names. The list
 * is read only on that failure path.
 */
export async function suggestingDataSource<T>(
  api: Service,
  ws: string,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 400 || err.status === 404)) {
      const known = await collect(listDataSources(api, ws)).then(
        (l) => l.map((d) => d.name),
        () => undefined,
      );
      if (known && !known.includes(name)) {
        const near = didYouMean(name, known);
        withHint(
          err,
          `"${name}" is not a data source in this workspace${near ? `; ${near}` : ''} (\`${suggest(['datasources', 'list'], { workspace: ws })}\` lists them)`,
        );
      }
    }
    throw err;
  }
}
