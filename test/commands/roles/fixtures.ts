import { http, type useSandbox } from '../../helpers.js';

/** The id of the agency's role with this title (undefined when there is none). */
export async function roleId(t: ReturnType<typeof useSandbox>, title: string) {
  return (await http(t.sb, 'GET', '/api/v3/roles/', { basic: true })).body.results.find((r: any) => r.title === title)
    ?.id;
}
