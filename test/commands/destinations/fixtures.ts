import { cli, type CliOptions, type useSandbox } from '../../helpers.js';

/** A secret access key that no output may echo. */
export const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCY';

/**
 * The destination connections of the sandbox of `t`, workspace 101: `edp(argv, opts)` runs the
 * CLI (with stdin, env or a terminal when asked), `stored(id)` is the sandbox's record, and
 * `lake()` creates an S3 connection through the CLI and returns its id.
 */
export function destinationConnections(t: ReturnType<typeof useSandbox>) {
  const edp = (argv: string[], opts: CliOptions = {}) => cli(t.sb, [...argv, '-w', '101'], opts);
  const stored = (id: number) => t.sb.store.state.destination_connections.find((d) => d.id === id)!;
  async function lake() {
    const r = await edp(
      [
        'destinations',
        'connections',
        'create',
        '--destination',
        's3',
        '--title',
        'Lake',
        '--bucket',
        'lake',
        '--region',
        'eu-west-1',
        '--aws-access-key-id',
        'AKIA1',
        '--secret-stdin',
        '--json',
      ],
      { stdin: SECRET },
    );
    return r.json().id as number;
  }
  return { edp, stored, lake };
}
