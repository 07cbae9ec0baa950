/**
 * The labelled mailboxes with urgency gold that urgency weights may learn from: the in-sample
 * dev sets (with the original labelled fixture, rewritten into the labelled-set shape) and the
 * blind sets. Held-out sets are never listed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureSets } from './lib';
import { DEFAULT_TAXONOMIES } from '../electron/core/domains/mail/defaults/index';

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export interface UrgencySet {
  name: string;
  dir: string;
  blind: boolean;
}

const isMailSet = (dir: string) => fs.existsSync(path.join(dir, 'gold.json')) && fs.existsSync(path.join(dir, 'mailbox.mbox'));

/**
 * `tests/fixtures/mail` (keys in X-Fixture headers, the built-in taxonomy) as a labelled set in a
 * temporary folder: gold keyed by Message-ID, the default taxonomy as taxonomy.yaml, no extraction.
 */
export function fixtureAsSet(): string {
  const src = path.join(REPO, 'tests/fixtures/mail');
  const mbox = fs.readFileSync(path.join(src, 'labelled.mbox'), 'utf8');
  const gold = JSON.parse(fs.readFileSync(path.join(src, 'gold.json'), 'utf8')) as { inbox: string; messages: Record<string, Record<string, unknown>> };
  const messages: Record<string, Record<string, unknown>> = {};
  for (const part of mbox.split(/\n(?=From )/)) {
    const head = part.split(/\r?\n\r?\n/)[0] ?? '';
    const key = /^X-Fixture: (\S+)/im.exec(head)?.[1];
    const mid = /^Message-ID:\s*(\S+)/im.exec(head)?.[1];
    const g = key ? gold.messages[key] : undefined;
    if (g && mid) messages[mid.replace(/^<|>$/g, '')] = g;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-fixture-set-'));
  fs.copyFileSync(path.join(src, 'labelled.mbox'), path.join(dir, 'mailbox.mbox'));
  fs.writeFileSync(path.join(dir, 'taxonomy.yaml'), DEFAULT_TAXONOMIES['default'] ?? '');
  fs.writeFileSync(path.join(dir, 'gold.json'), JSON.stringify({ mailbox: gold.inbox, messages, extraction: [], drafts: [] }));
  return dir;
}

/**
 * Every set with urgency gold: in-sample first, then blind (sorted by folder name; every folder of
 * tests/fixtures/blind with gold.json and mailbox.mbox — mail, mail-b, mail-c, mail-d, mail-e).
 */
export function urgencySets(): UrgencySet[] {
  const inSample = ['mail-dev', 'mail-dev2', 'mail-dev3', 'mail-dev4'].map((d) => ({ name: d, dir: path.join(REPO, 'tests/fixtures', d), blind: false }));
  const blind = fixtureSets('blind', isMailSet).map((dir) => ({ name: `blind/${path.basename(dir)}`, dir, blind: true }));
  return [{ name: 'mail (fixture)', dir: fixtureAsSet(), blind: false }, ...inSample.filter((s) => isMailSet(s.dir)), ...blind];
}
