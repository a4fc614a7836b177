import type { KindChange } from '../../fleet/plan/kinds-types.js';

/** A plan's line for a change of an extract, a destination connection, accounts or a data table. */

const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

export function kindChangeText(c: KindChange, what: string): string {
  switch (c.resource) {
    case 'extract': {
      const d = c.detail;
      if (c.action === 'create')
        return `+ ${what}: create for ${d.data_source} account ${d.account}${d.schedule ? `, schedule ${d.schedule}` : ''}${d.paused ? ', paused' : ''}`;
      const parts: string[] = [];
      if (c.action === 'update') {
        if (c.detail.schedule) parts.push(`schedule ${c.detail.schedule.was ?? 'none'} → ${c.detail.schedule.now}`);
        if (c.detail.paused !== undefined) parts.push(c.detail.paused ? 'pause' : 'unpause');
      }
      return `~ ${what}: account ${d.account}: ${parts.join(', ')}`;
    }
    case 'destination': {
      if (c.action === 'create') {
        const params = Object.entries(c.detail.params).map(([k, v]) => `${k}=${value(v)}`);
        return `+ ${what}: create ${c.detail.destination} connection${params.length ? `, ${params.join(', ')}` : ''}`;
      }
      const parts = Object.entries(c.detail.params).map(([k, v]) => `${k} ${value(v.was)} → ${value(v.now)}`);
      if (c.detail.secrets.length > 0) parts.push(`send secret fields ${c.detail.secrets.join(', ')} (--send-secrets)`);
      return `~ ${what}: ${parts.join('; ')}`;
    }
    case 'account': {
      const parts: string[] = [];
      if (c.detail.enable.length) parts.push(`enable ${c.detail.enable.length}: ${c.detail.enable.join(', ')}`);
      if (c.detail.disable.length) parts.push(`disable ${c.detail.disable.length}: ${c.detail.disable.join(', ')}`);
      return `~ ${what}: extraction ${parts.join('; ')}`;
    }
    case 'table': {
      const parts = [...c.detail.add.map((n) => `+ ${n}`), ...c.detail.remove.map((n) => `- ${n}`)];
      return `~ ${what}: selected fields ${parts.join(', ')}`;
    }
  }
}
