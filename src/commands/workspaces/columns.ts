import type { Workspace } from '../../api/workspaces.js';

export const workspaceColumns = [
  { header: 'ID', value: (w: Workspace) => w.id },
  { header: 'TITLE', value: (w: Workspace) => w.title },
];
