import { createHmac } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventKey } from '../../../src/commands/webhooks/shared/receiver.js';
import { REPLAY_WINDOW_MS, ReplayWindow, SeenFile } from '../../../src/commands/webhooks/shared/replay-window.js';
import { cli, tempDir } from '../../helpers.js';
import { startListen } from '../../fixtures/webhooks.js';

// What `webhooks listen` remembers of the events it handed on: told apart by their signed id as
// JSON (1 and "1" are two events), and, with a secrets file, kept across restarts beside it.

const SECRET = 'c'.repeat(64);
const MINUTE = 60_000;
const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** A delivery as the service signs it: the raw body, and its signature over those bytes. */
function delivery(body: string, key?: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'X-Service-Signature': createHmac('sha256', SECRET).update(body).digest('hex'),
  };
  if (key) headers['X-Service-Idempotency-Key'] = key;
  return { body, headers };
}

const bodyOf = (id: string, at = Date.now()) =>
  `{"id":${id},"type":"load_completed","timestamp":"${stamp(at)}","data":{"load_id":"7"}}`;

async function post(url: string, d: { body: string; headers: Record<string, string> }): Promise<string> {
  const res = await fetch(`${url}/hook`, { method: 'POST', ...d });
  return `${res.status} ${await res.text()}`;
}

/** A secrets file as `edp apply --secrets-file` writes it, holding SECRET. */
function secretsFile(dir: string): string {
  const file = join(dir, 'secrets.json');
  writeFileSync(
    file,
    JSON.stringify({
      format_version: 1,
      endpoints: [{ workspace_id: '101', endpoint_id: '1', url: 'http://x/hook', secret: SECRET }],
    }),
    { mode: 0o600 },
  );
  return file;
}

describe('edp webhooks listen: what it remembers', () => {
  it('takes the number 1 and the string "1" for two events; a repeat of either is one', async () => {
    const l = await startListen(['--secret', SECRET]);
    const number = delivery(bodyOf('1'));
    const string = delivery(bodyOf('"1"'));
    try {
      expect(await post(l.url, number)).toBe('200 ok\n');
      expect(await post(l.url, string)).toBe('200 ok\n');
      expect(await post(l.url, { ...number, headers: { ...number.headers, 'X-Service-Idempotency-Key': 'k2' } })).toBe(
        '200 ok (duplicate)\n',
      );
      expect(await post(l.url, string)).toBe('200 ok (duplicate)\n');
    } finally {
      const r = await l.stop();
      expect(r.stdout.trim().split('\n')).toEqual([number.body, string.body]);
    }
  });

  it('with --secrets-file, a delivery captured before a restart is not handed on again after it', async () => {
    const dir = tempDir();
    try {
      const file = secretsFile(dir.dir);
      const captured = delivery(bodyOf('"evt_restart"'), 'genuine');
      const first = await startListen(['--secrets-file', file]);
      expect(await post(first.url, captured)).toBe('200 ok\n');
      const before = await first.stop();
      expect(before.stdout.trim()).toBe(captured.body);
      expect(before.stderr).toContain(`The events handed on are kept in ${file}.seen across restarts (0 from before)`);

      const seen = `${file}.seen`;
      expect(statSync(seen).mode & 0o777).toBe(0o600);
      expect(readFileSync(seen, 'utf8')).not.toContain(SECRET);

      const second = await startListen(['--secrets-file', file]);
      const replayed = { ...captured, headers: { ...captured.headers, 'X-Service-Idempotency-Key': 'replayed' } };
      expect(await post(second.url, replayed)).toBe('200 ok (duplicate)\n');
      expect(await post(second.url, delivery(bodyOf('"evt_new"')))).toBe('200 ok\n');
      const after = await second.stop();
      expect(after.code, after.stderr).toBe(0);
      expect(after.stderr).toContain('(1 from before)');
      expect(
        after.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).id),
      ).toEqual(['evt_new']);
    } finally {
      dir.remove();
    }
  });

  it('reads back only the events still inside the window, skips a line cut short, and rewrites the file with them', async () => {
    const dir = tempDir();
    try {
      const file = secretsFile(dir.dir);
      const now = Date.now();
      const live = eventKey(SECRET, 'load_completed', 'evt_live');
      const gone = eventKey(SECRET, 'load_completed', 'evt_gone');
      writeFileSync(
        `${file}.seen`,
        [
          '{"edp_webhooks_seen_events":1}',
          JSON.stringify([gone, now - REPLAY_WINDOW_MS - 5 * MINUTE]),
          JSON.stringify([live, now - 10 * MINUTE]),
          '["cut sh',
        ].join('\n'),
        { mode: 0o644 },
      );
      const l = await startListen(['--secrets-file', file]);
      const rewritten = readFileSync(`${file}.seen`, 'utf8').trim().split('\n');
      expect(rewritten).toEqual(['{"edp_webhooks_seen_events":1}', JSON.stringify([live, now - 10 * MINUTE])]);
      expect(statSync(`${file}.seen`).mode & 0o777).toBe(0o600);
      expect(await post(l.url, delivery(bodyOf('"evt_live"', now - 10 * MINUTE)))).toBe('200 ok (duplicate)\n');
      const r = await l.stop();
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('(1 from before)');
    } finally {
      dir.remove();
    }
  });

  it('refuses to start over a FILE.seen that is not its own, naming it (exit 2)', async () => {
    const dir = tempDir();
    try {
      const file = secretsFile(dir.dir);
      writeFileSync(`${file}.seen`, 'notes of mine\n');
      const r = await cli(undefined, ['webhooks', 'listen', '--port', '0', '--secrets-file', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file}.seen is where the listener keeps the events it handed on`);
      expect(readFileSync(`${file}.seen`, 'utf8')).toBe('notes of mine\n');
    } finally {
      dir.remove();
    }
  });

  it('says in its help where the events are kept, and what a restart forgets without a secrets file', async () => {
    const r = await cli(undefined, ['webhooks', 'listen', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'With --secrets-file FILE the events handed on are kept in FILE.seen (mode 0600), so a restart forgets none. Otherwise they are kept in memory only: a delivery sent again after a restart, while its timestamp is under 60 minutes old, is handed on again.',
    );
  });
});

describe('SeenFile', () => {
  it('stays bounded: once the lines appended outnumber the events remembered, it is rewritten with those alone', () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'secrets.json.seen');
      let now = Date.UTC(2025, 0, 2, 3, 4, 5);
      const window = new ReplayWindow(() => now);
      const file = SeenFile.open(path, window, (text) => {
        throw new Error(text);
      });
      const lines = () => readFileSync(path, 'utf8').trim().split('\n').length;
      for (let i = 0; i < 6_000; i++) window.record(`old-${i}`, now);
      expect(lines()).toBe(1 + 6_000);
      now += REPLAY_WINDOW_MS + 2 * MINUTE;
      for (let i = 0; i < 4_000; i++) window.record(`new-${i}`, now);
      expect(lines()).toBe(1 + 10_000);
      // the 10,001st line since the last rewrite: the file keeps the 4,001 events inside the window
      window.record('new-last', now);
      expect(window.size).toBe(4_001);
      expect(lines()).toBe(1 + 4_001);
      window.record('after', now);
      expect(lines()).toBe(1 + 4_002);
      file.close();
      const again = new ReplayWindow(() => now);
      expect(SeenFile.open(path, again, () => undefined).restored).toBe(4_002);
      expect(again.has('new-last') && again.has('after') && !again.has('old-1')).toBe(true);
    } finally {
      dir.remove();
    }
  });
});
