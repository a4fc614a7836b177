import type { ExternalAuthLink } from '../../../api/links.js';
import type { Column } from '../../../output/output.js';

/** Status is an open set: a value the tool does not know is shown as it is, uncoloured. */
export const statusColumn: Column<ExternalAuthLink> = {
  header: 'STATUS',
  value: (l) => l.status,
  style: (t, l, c) =>
    l.status === 'not_used'
      ? c.green(t)
      : l.status === 'used'
        ? c.cyan(t)
        : l.status === 'expired' || l.status === 'revoked_manually'
          ? c.dim(t)
          : t,
};
