import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers.js';

/** A fresh config dir, no service address and no workspace from the environment. */
export function fresh() {
  const dir = tempDir();
  const env: Record<string, string | undefined> = {
    EDP_CONFIG_DIR: dir.dir,
    EDP_BASE_URL: undefined,
    EDP_WORKSPACE: undefined,
  };
  return {
    env,
    file: join(dir.dir, 'config.json'),
    read: () => JSON.parse(readFileSync(join(dir.dir, 'config.json'), 'utf8')),
  };
}
