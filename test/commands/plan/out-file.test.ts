import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';

/** Where a command is to write is checked before it reads anything: the service address here leads nowhere. */
const NOWHERE = { url: 'http://127.0.0.1:9' };
const file = useFiles('edp-out-file-');

describe('a file to write in a folder that does not exist', () => {
  it('plan --out: exit 2 naming --out and the folder, before any workspace is read', async () => {
    const fleet = file('fleet.yaml', 'workspaces: [101, 102]\nroles: []\n');
    const dir = tempDir('edp-out-');
    try {
      const missing = join(dir.dir, 'missing');
      const r = await cli(NOWHERE, ['plan', '-f', fleet, '--out', join(missing, 'p.json')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `--out ${join(missing, 'p.json')}: the folder ${missing} does not exist; create it, or name a file in another`,
      );
      expect(r.stderr).not.toContain('read workspace');
      // A folder named as the file.
      const folder = await cli(NOWHERE, ['plan', '-f', fleet, '--out', dir.dir]);
      expect(folder.code).toBe(2);
      expect(folder.stderr).toContain(`--out ${dir.dir} is a folder; name a file`);
    } finally {
      dir.remove();
    }
  });

  it('export --output: the same, before any workspace is read', async () => {
    const dir = tempDir('edp-out-');
    try {
      const missing = join(dir.dir, 'missing');
      const r = await cli(NOWHERE, ['export', '-w', '101', '--output', join(missing, 'fleet.yaml')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--output ${join(missing, 'fleet.yaml')}: the folder ${missing} does not exist`);
    } finally {
      dir.remove();
    }
  });
});
