/**
 * The sandbox's permission catalog: ordered product layers, each with permissions, every entry
 * with a human-readable title and description (docs/contract-rules.md, Permission catalog). The
 * names follow the one permission the contract spells out, `EXTRACT.CREATE` (docs/contract-rules.md,
 * Extraction templates, create).
 */
export interface CatalogPermission {
  permission: string;
  title: string;
  description: string;
}

export interface CatalogLayer {
  layer: string;
  title: string;
  description: string;
  permissions: CatalogPermission[];
}

const p = (permission: string, title: string, description: string): CatalogPermission => ({
  permission,
  title,
  description,
});

export const PERMISSION_CATALOG: readonly CatalogLayer[] = [
  {
    layer: 'WORKSPACE',
    title: 'Workspace',
    description: 'The workspace itself and its members',
    permissions: [
      p('VIEW', 'View workspace', 'See the workspace and its settings'),
      p('MANAGE_USERS', 'Manage users', 'Invite, remove and re-assign workspace members'),
    ],
  },
  {
    layer: 'CONNECTION',
    title: 'Connections',
    description: 'Connections to data sources and their accounts',
    permissions: [
      p('VIEW', 'View connections', 'See connections and their accounts'),
      p('CREATE', 'Create connections', 'Connect data sources and send authentication links'),
      p('EDIT', 'Edit connections', 'Select accounts for extraction'),
      p('DELETE', 'Delete connections', 'Remove connections (their extractions pause)'),
    ],
  },
  {
    layer: 'EXTRACT',
    title: 'Extraction',
    description: 'Extraction templates and extracts',
    permissions: [
      p('VIEW', 'View extracts', 'See extraction templates, extracts and their runs'),
      p('CREATE', 'Create extracts', 'Create extraction templates and extracts'),
      p('EDIT', 'Edit extracts', 'Change fields, schedules, pause and unpause'),
      p('RUN', 'Run extracts', 'Start extract runs on demand'),
    ],
  },
  {
    layer: 'DATA_TABLE',
    title: 'Data tables',
    description: 'Tables extracts deliver into',
    permissions: [
      p('VIEW', 'View data tables', 'See data tables and their schemas'),
      p('EDIT', 'Edit data tables', 'Choose the fields delivered to loads'),
    ],
  },
  {
    layer: 'DESTINATION',
    title: 'Destinations',
    description: 'Destination connections',
    permissions: [
      p('VIEW', 'View destinations', 'See destination connections'),
      p('CREATE', 'Create destinations', 'Add destination connections'),
      p('EDIT', 'Edit destinations', 'Change destination parameters and re-check them'),
    ],
  },
  {
    layer: 'LOAD',
    title: 'Loading',
    description: 'Loads of data tables to destinations',
    permissions: [
      p('VIEW', 'View loads', 'See loads and their runs'),
      p('CREATE', 'Create loads', 'Create loads'),
      p('EDIT', 'Edit loads', 'Change, pause, unpause and delete loads'),
      p('RUN', 'Run loads', 'Start load runs, also for a date range'),
    ],
  },
  {
    layer: 'RECIPE',
    title: 'Recipes',
    description: 'Automated recipes',
    permissions: [
      p('VIEW', 'View recipes', 'See recipes, their state and sources'),
      p('CREATE', 'Create recipes', 'Create and configure recipes'),
      p('BUILD', 'Build recipes', 'Build and re-set up recipes'),
      p('DELETE', 'Delete recipes', 'Delete recipes and their output'),
    ],
  },
];

export interface PermissionPair {
  layer: string;
  permission: string;
}

export function layerOf(name: string): CatalogLayer | undefined {
  return PERMISSION_CATALOG.find((l) => l.layer === name);
}

/** Every pair of the catalog, in catalog order. */
export function allPermissions(): PermissionPair[] {
  return PERMISSION_CATALOG.flatMap((l) => l.permissions.map((x) => ({ layer: l.layer, permission: x.permission })));
}

export function pairsOf(spec: Record<string, string[]>): PermissionPair[] {
  return Object.entries(spec).flatMap(([layer, perms]) => perms.map((permission) => ({ layer, permission })));
}
