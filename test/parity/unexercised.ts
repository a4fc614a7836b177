import type { Operation } from '../../src/contract/operations.js';

/**
 * Why an operation went unexercised in a run, for the coverage line's list. Every operation has
 * a check that reaches it against the fresh sandbox; against a service, an operation is reached
 * only when the run may send it (the gates below) and the workspace holds what its check needs.
 */

/** What a run must allow for the checks to send an operation. */
type Gate = 'read' | 'scratch' | 'agency';

interface Why {
  gate: Gate;
  /** what the check needs beyond its gate, when the workspace may lack it */
  needs?: string;
}

/**
 * The operations whose gate is not what their method says (a POST that changes nothing, a
 * write outside the scratch workspace), and those whose check needs something a workspace may
 * lack. Any other GET is a read and any other method a write in the scratch workspace.
 */
const WHY: Record<string, Why> = {
  'POST /api/v3/token': { gate: 'read' },
  'POST /api/v3/get_iframe_url': { gate: 'read' },
  'GET /api/v3/iframe/': { gate: 'read', needs: 'a data source, whose iframe URL it opens' },
  'POST /api/v3/extract-template/:template_id/validation/': {
    gate: 'read',
    needs: 'a connection with an active account and a template of its data source',
  },
  'POST /api/v3/extract-template/:template_id/preview/': {
    gate: 'read',
    needs: 'a connection with an active account and a template of its data source',
  },
  'POST /api/v3/datasources/:datasource_name/custom_setting_options/': {
    gate: 'read',
    needs: 'a connection with an active account',
  },
  'POST /api/v3/workspaces': { gate: 'agency' },
  'GET /api/v3/extracts/:id': { gate: 'read', needs: 'an extract in the workspace' },
  'GET /api/v3/loads/:id': { gate: 'read', needs: 'a load in the workspace' },
  'GET /api/v3/destinations/:destination_name/connections/:id': {
    gate: 'read',
    needs: 'a destination connection in the workspace',
  },
  'POST /api/v3/extracts/:extract_id/pause': { gate: 'scratch', needs: 'a running extract' },
  'POST /api/v3/extracts/:extract_id/unpause': { gate: 'scratch', needs: 'a running extract' },
  'PUT /api/v3/loads/:id/pause': { gate: 'scratch', needs: 'a load' },
  'PUT /api/v3/loads/:id/unpause': { gate: 'scratch', needs: 'a load' },
  'PUT /api/v3/loads/:id/run': { gate: 'scratch', needs: 'a load' },
  'PUT /api/v3/data-tables/:data_table_id': { gate: 'scratch', needs: 'a data table' },
  'POST /api/v3.1/extracts/': { gate: 'scratch', needs: 'a connection with an active account and a template' },
  'POST /api/v3/datasources/:datasource_name/extract-templates': { gate: 'scratch', needs: 'a global template' },
  'POST /api/v3/loads': { gate: 'scratch', needs: 'a data table and a destination connection' },
  // Read, but of the recipe the write checks make.
  'GET /api/v3.1/automated-recipes/:id/extractions/': {
    gate: 'scratch',
    needs: 'a connection with two active accounts',
  },
  'GET /api/v3/automated-recipes/:id/extractions/': { gate: 'scratch', needs: 'a connection with two active accounts' },
};

export interface RunGates {
  /** a scratch workspace was given */
  canWrite: boolean;
  /** writes outside it were allowed */
  agencyWrites: boolean;
}

/** The reason printed next to an operation no check reached. */
export function whyNotExercised(op: Operation, gates: RunGates): string {
  const key = `${op.method} ${op.path}`;
  const why = WHY[key] ?? { gate: op.method === 'GET' ? 'read' : 'scratch' };
  if (why.gate === 'agency' && !gates.agencyWrites)
    return 'acts outside the scratch workspace and cannot be undone: runs with EDP_PARITY_AGENCY_WRITES=1';
  if (why.gate === 'scratch' && !gates.canWrite) return 'a write: runs with EDP_PARITY_WORKSPACE (a scratch workspace)';
  return `its check did not reach it${why.needs ? ` (it needs ${why.needs})` : ''}: see the SKIP and FAIL lines`;
}
