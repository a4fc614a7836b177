import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { checkFixture } from '../../src/sandbox/index.js';
import { fixtureJsonSchema } from '../../src/sandbox/fixture/schema.js';

/**
 * docs/sandbox-fixture.schema.json is the fixture's zod schema as JSON Schema: the published
 * file must be what the schema gives (EDP_WRITE_FIXTURE_SCHEMA=1 rewrites it), and the example
 * docs/sandbox.md shows must pass it, as an editor or a CI job of an operator checks it.
 */

const PUBLISHED = 'docs/sandbox-fixture.schema.json';

async function generated(): Promise<string> {
  const options = (await prettier.resolveConfig(PUBLISHED)) ?? {};
  return prettier.format(JSON.stringify(fixtureJsonSchema()), { ...options, parser: 'json' });
}

/** The YAML block that follows the `fixture-example` marker in docs/sandbox.md. */
function docsExample(): string {
  const doc = readFileSync('docs/sandbox.md', 'utf8');
  const block = /<!-- fixture-example -->\n```yaml\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/sandbox.md has no ```yaml block after <!-- fixture-example -->');
  return block[1]!;
}

describe('the published JSON Schema of a fixture', () => {
  it('is the one the schema gives', async () => {
    const expected = await generated();
    if (process.env.EDP_WRITE_FIXTURE_SCHEMA) writeFileSync(PUBLISHED, expected);
    expect(
      readFileSync(PUBLISHED, 'utf8'),
      `${PUBLISHED} is stale: EDP_WRITE_FIXTURE_SCHEMA=1 npx vitest run test/sandbox/fixture-schema.test.ts`,
    ).toBe(expected);
  });

  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  const validate = ajv.compile(JSON.parse(readFileSync(PUBLISHED, 'utf8')));

  it("takes the docs' example, which starts a sandbox", async () => {
    const text = docsExample();
    const valid = validate(parseYaml(text));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    const fixture = await checkFixture(parseYaml(text), 'fixture');
    expect(fixture.workspaces.map((w) => w.title)).toEqual(['Acme Retail', 'Globex Media']);
  });

  it('refuses what the sandbox refuses for its shape: an unknown key, a missing one', () => {
    const example = parseYaml(docsExample());
    expect(validate({ ...example, workspace: [] })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({
      keyword: 'additionalProperties',
      params: { additionalProperty: 'workspace' },
    });
    const { agency: _agency, ...noAgency } = example;
    expect(validate(noAgency)).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'agency' } });
  });
});
