import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../../../electron/core/domains/vault';
import { analyzeOne, defaultRules, parseRules, ExampleStore, type AnalysisItem } from '../../../electron/core/domains/inbox';
import { appendLooseRule } from '../../../electron/core/domains/inbox/rules';
import { tempDir, writeFiles } from '../../helpers/owner';

/** A potter's vault (a life unlike the fixture's): studio work, markets, a garden, a logbook. */
const VAULT: Record<string, string> = {
  'studio/ceramics/glazes.md': '# Glazes\n\nCeladon glaze over porcelain; dip for three seconds. Tenmoku breaks brown on the rims of bowls. Glaze recipes in grams.\n',
  'studio/ceramics/throwing.md': '# Throwing\n\nCentre the clay on the wheel, open, pull the walls in three passes. Trim bowls when leather hard.\n',
  'studio/ceramics/clay-bodies.md': '# Clay bodies\n\nStoneware clay from the supplier shrinks twelve percent. Porcelain is whiter but slumps on the wheel.\n',
  'studio/ceramics/mugs.md': '# Mugs\n\nPull handles from the mug body; let the mugs dry slowly under plastic before the bisque.\n',
  'studio/markets/craft-fair.md': '# Craft fair\n\nStall fee forty euros; bring the card reader, price tags, wrapping paper and the folding table.\n',
  'studio/markets/pricing.md': '# Pricing\n\nMugs sell for twenty eight, bowls for thirty five; the market crowd prefers small bowls.\n',
  'studio/markets/stall.md': '# Stall layout\n\nTall pieces at the back of the stall, mugs at the front, price tags facing the aisle.\n',
  'garden/beans.md': '# Beans\n\nRunner beans on the hazel poles; water in the evening; pick every other day.\n',
  'garden/compost.md': '# Compost\n\nTurn the heap monthly; coffee grounds and leaves; keep it damp.\n',
  'logbook/week-12.md': '# Week 12\n\nSlow week. Invoices sent, studio swept, new shelves ordered.\n',
  'logbook/week-13.md': '# Week 13\n\nDelivered the order to the cafe, repaired the shelf bracket, wrote the newsletter.\n',
};

const FIRINGS = [
  '# Bisque firing\n\nBisque firing on Tuesday: the kiln reached cone 04 in nine hours, slow cooling overnight, two mugs cracked.\n',
  '# Glaze firing\n\nGlaze firing on Friday: the kiln hit cone 6 in eleven hours; one bowl crawled, the celadon pieces came out well.\n',
  '# Test tiles firing\n\nFired the test tiles: kiln at cone 6 after ten hours, cooling took a day, tiles pinholed.\n',
];
const NEW_FIRING = '# Second bisque\n\nAnother bisque firing on Monday: kiln reached cone 04 in eight hours, cooling overnight, nothing cracked.\n';

const dbs: Database.Database[] = [];
const indexes: VaultIndex[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
  for (const i of indexes.splice(0)) i.close();
});

function setup(extra: Record<string, string> = {}) {
  const root = tempDir('mailroom-learn-vault-');
  writeFiles(root, { ...VAULT, ...extra });
  const index = new VaultIndex(path.join(tempDir('mailroom-learn-idx-'), 'index.db'));
  indexes.push(index);
  catchUp(index, root);
  const vault = { root, index, resolve: (rel: string) => resolveInVault(root, normalizeRel(rel)) };
  return { root, index, vault };
}

function openStore(file: string) {
  const db = new Database(file);
  dbs.push(db);
  return new ExampleStore(db, () => Date.parse('2026-03-01T10:00:00Z'));
}

const now = Date.parse('2026-03-01T10:00:00Z');
const analyze = async (v: ReturnType<typeof setup>['vault'], rel: string, text: string, store?: ExampleStore, rules = defaultRules()) =>
  (await analyzeOne(rel, text, { vault: v, rules, now, memory: store ? (p) => store.memory(p) : undefined })).item;

const example = (rel: string, text: string, suggested: AnalysisItem, destination: string) => ({
  batch_id: 'b1',
  path: rel,
  title: /^#\s+(.+)$/m.exec(text)![1],
  text,
  action: 'move' as const,
  folder: null,
  destination,
  suggested_action: suggested.suggested_action,
  suggested_destination: suggested.destination,
  suggested_confidence: suggested.confidence,
  origin: 'review',
});

describe('learning from review', () => {
  it('an item nearly the same as one the person kept or merged gets that decision; an unlike item does not', async () => {
    const { vault } = setup();
    const store = openStore(path.join(tempDir('mailroom-learn-state-'), 'state.db'));
    const decide = async (rel: string, text: string, action: 'keep' | 'merge', destination: string | null) => {
      const s = await analyze(vault, rel, text, store);
      store.record([{ ...example(rel, text, s, ''), action, destination }]);
    };
    const kiln1 = '# Kiln shelf wash\n\nKiln wash on the kiln shelves again: alumina and kaolin half and half, two thin coats, let the shelves dry a day.\n';
    const kiln2 = '# Kiln shelf wash again\n\nKiln wash on the kiln shelves: alumina and kaolin half and half, two thin coats, and let the shelves dry.\n';
    const moon1 = '# Moon mug daydream\n\nA moon mug: celadon glaze over porcelain, a tenmoku rim like the moon at dusk. Probably never.\n';
    const moon2 = '# Moon mug daydream again\n\nMoon mug: celadon glaze over porcelain with a tenmoku rim like a dusk moon. Probably never.\n';
    expect((await analyze(vault, 'inbox/k2.md', kiln2, store)).suggested_action).toBe('move');
    expect((await analyze(vault, 'inbox/m2.md', moon2, store)).suggested_action).toBe('move');
    await decide('inbox/k1.md', kiln1, 'merge', 'studio/ceramics/glazes.md');
    await decide('inbox/m1.md', moon1, 'keep', null);
    const merged = await analyze(vault, 'inbox/k2.md', kiln2, store);
    expect([merged.suggested_action, merged.destination]).toEqual(['merge', 'studio/ceramics/glazes.md']);
    expect(merged.reasoning).toMatch(/merged into studio\/ceramics\/glazes\.md/);
    expect((await analyze(vault, 'inbox/m2.md', moon2, store)).suggested_action).toBe('keep');
    // Unlike either: filed as before.
    expect((await analyze(vault, 'inbox/beans2.md', '# Beans again\n\nRunner beans up the hazel poles, water them in the evening.\n', store)).destination).toMatch(/^garden\//);
  });

  it('corrections change the next suggestion for a similar item, say so, and survive reopening the state DB', async () => {
    const { vault } = setup();
    const file = path.join(tempDir('mailroom-learn-state-'), 'state.db');
    const store = openStore(file);
    const before = await analyze(vault, 'inbox/second-bisque.md', NEW_FIRING, store);
    // Without earlier decisions, firings look like studio work.
    expect(before.destination).toMatch(/^studio\/ceramics\//);
    const decided = [];
    for (const [i, t] of FIRINGS.slice(0, 2).entries()) {
      const s = await analyze(vault, `inbox/f${i}.md`, t, store);
      expect(s.destination).not.toMatch(/^logbook\//);
      decided.push(example(`inbox/f${i}.md`, t, s, 'logbook/'));
    }
    store.record(decided);
    expect(store.list().every((e) => e.edited === 1 && e.folder === 'logbook')).toBe(true);
    const after = await analyze(vault, 'inbox/second-bisque.md', NEW_FIRING, store);
    expect(after.suggested_action).toBe('move');
    expect(after.destination).toMatch(/^logbook\//);
    expect(after.reasoning).toMatch(/like 2 earlier items you filed in logbook/);

    // A new process on the same state.db: the examples are still there and still teach.
    dbs.pop()!.close();
    const again = openStore(file);
    expect(again.count()).toBe(2);
    expect((await analyze(vault, 'inbox/second-bisque.md', NEW_FIRING, again)).destination).toMatch(/^logbook\//);
    // JSONL export: one labelled object per line.
    const lines = again.jsonl().trim().split('\n').map((l) => JSON.parse(l) as { label: string; edited: boolean });
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.label === 'logbook' && l.edited)).toBe(true);

    // Undo of the batch withdraws its examples: the suggestion goes back.
    expect(again.withdraw('b1')).toBe(2);
    expect(again.count()).toBe(0);
    expect((await analyze(vault, 'inbox/second-bisque.md', NEW_FIRING, again)).destination).toMatch(/^studio\/ceramics\//);
  });

  it('proposes a loose-bullet rule after three edits toward one folder sharing a word; once appended, the rules parser applies it', async () => {
    const { vault } = setup();
    const store = openStore(path.join(tempDir('mailroom-learn-state-'), 'state.db'));
    const p = (await import('../../../electron/core/domains/inbox/profiles')).folderProfiles(vault.index, (f) => f !== 'inbox');
    store.record([example('inbox/f0.md', FIRINGS[0], await analyze(vault, 'inbox/f0.md', FIRINGS[0]), 'logbook/')]);
    store.record([example('inbox/f1.md', FIRINGS[1], await analyze(vault, 'inbox/f1.md', FIRINGS[1]), 'logbook/')]);
    expect(store.proposeRules(p, defaultRules())).toEqual([]); // two are not yet a pattern
    store.record([example('inbox/f2.md', FIRINGS[2], await analyze(vault, 'inbox/f2.md', FIRINGS[2]), 'logbook/')]);
    const [s] = store.proposeRules(p, defaultRules());
    expect(s).toMatchObject({ folder: 'logbook', status: 'open' });
    expect(s.line).toMatch(/^- anything about (kiln|firing|cone) → logbook\/$/);
    // Appended under the loose rules section, the file stays readable and the rule applies.
    const md = '# Inbox Processing Rules\n\n## Loose rules\n- anything about beans → garden/\n\n## Notes\nfree text\n';
    const next = appendLooseRule(md, s.line);
    expect(next).toBe(`# Inbox Processing Rules\n\n## Loose rules\n- anything about beans → garden/\n${s.line}\n\n## Notes\nfree text\n`);
    const rules = parseRules(next);
    const item = await analyze(vault, 'inbox/x.md', NEW_FIRING, undefined, rules);
    expect(item.rules_matched).toContain(s.line.slice(2));
    expect(item.destination).toMatch(/^logbook\//);
    // A folder name that would smuggle markup into the rules file is never proposed.
    const evil = 'logbook\n## Auto-File Rules\n- anything → x';
    const poles = ['# Poles\n\nNew hazel poles for the runner beans.\n', '# More poles\n\nCut hazel poles in the copse.\n', '# Pole rack\n\nA rack for the hazel poles by the shed.\n'];
    store.record(poles.map((t, i) => ({ ...example(`inbox/e${i}.md`, t, { suggested_action: 'move', destination: 'garden/x.md', confidence: 0.5 } as AnalysisItem, `${evil}/`), folder: evil })));
    expect(store.proposeRules(p, defaultRules()).map((x) => x.folder)).toEqual(['logbook']);
    // Dismissed suggestions are not proposed again.
    store.decide(s.id, 'dismissed');
    expect(store.proposeRules(p, defaultRules())).toEqual([]);
  });
  it('entity memory: a correction sends the next item sharing only a name to that folder, says so, survives reopening, and undo withdraws it', async () => {
    const { vault } = setup();
    const file = path.join(tempDir('mailroom-learn-state-'), 'state.db');
    const store = openStore(file);
    const first = '# Glaze order\n\nOrder for Mrs Okonjo: six celadon bowls, glaze firing next week, pay on collection.\n';
    // Shares no word with the first item but the client's name.
    const next = '# Voicemail\n\nMrs Okonjo rang, wants to bring the date forward to Thursday. Call back after lunch.\n';
    const before = await analyze(vault, 'inbox/vm.md', next, store);
    expect(before.destination ?? '').not.toMatch(/^garden\//);
    const s = await analyze(vault, 'inbox/order.md', first, store);
    expect(s.destination).not.toMatch(/^garden\//);
    store.record([example('inbox/order.md', first, s, 'garden/')]);
    const after = await analyze(vault, 'inbox/vm.md', next, store);
    expect(after.destination).toMatch(/^garden\//);
    expect(after.reasoning).toMatch(/like 1 earlier item about Mrs Okonjo you filed in garden/);
    // Without the name, the same words are not pulled there.
    const anon = await analyze(vault, 'inbox/vm2.md', next.replace(/Mrs Okonjo/g, 'Someone'), store);
    expect(anon.destination ?? '').not.toMatch(/^garden\//);
    // A new process on the same state.db still remembers the name.
    dbs.pop()!.close();
    const again = openStore(file);
    expect((await analyze(vault, 'inbox/vm.md', next, again)).destination).toMatch(/^garden\//);
    // Undo of the batch withdraws it.
    again.withdraw('b1');
    expect((await analyze(vault, 'inbox/vm.md', next, again)).destination ?? '').not.toMatch(/^garden\//);
  });

  it('a name many notes use is learnt more slowly than a name the vault does not know', async () => {
    const { vault } = setup();
    const { folderProfiles } = await import('../../../electron/core/domains/inbox/profiles');
    const { distinctiveness, entityKeys } = await import('../../../electron/core/domains/inbox/entity-memory');
    const p = folderProfiles(vault.index, (f) => f !== 'inbox');
    expect(distinctiveness('okonjo', p)).toBe(1);
    expect(distinctiveness('mugs', p)).toBeLessThan(distinctiveness('okonjo', p));
    const keys = entityKeys('Call', 'Spoke to Ada Obi (ada@obi-studio.example) about [[Glazes]] and the Tuesday kiln.');
    expect([...keys.keys()]).toEqual(expect.arrayContaining(['email:ada@obi-studio.example', 'domain:obi-studio.example', 'link:glazes', 'ada', 'obi']));
    expect(keys.has('tuesday')).toBe(false);
  });
});

describe('names, collections and missing embeds', () => {
  const extra = {
    'people/ada-obi.md': '---\ntype: person\n---\n# Ada Obi\n\nPotter, shares the kiln on Thursdays.\n',
    'people/ben-hale.md': '---\ntype: person\n---\n# Ben Hale\n\nRuns the cafe that stocks the mugs.\n',
    'studio/markets/fair list 2026.md': '# Fair list 2026\n\n- Spring craft fair, stall booked\n- Harvest market, waiting to hear\n',
  };
  it('a short capture titled by a collection note (less list/year/plural) merges into it; a longer name does not', async () => {
    const { vault } = setup(extra);
    const item = await analyze(vault, 'inbox/fairs.md', '# fairs\n\nWinter fair at the town hall, 12 Dec, stall fee thirty.\n');
    expect([item.suggested_action, item.destination]).toEqual(['merge', 'studio/markets/fair list 2026.md']);
    const other = await analyze(vault, 'inbox/fair-stall.md', '# Fair stall rota\n\nWho minds the stall at the winter fair: me, then Ben.\n');
    expect(other.suggested_action).toBe('move');
  });
  it('a first name over a full-name first line with a phone number is a note about a new person', async () => {
    const { vault } = setup(extra);
    const item = await analyze(vault, 'inbox/Cleo.md', '# Cleo\n\nCleo Marsh\n- new Saturday helper at the studio\n- mob 07700 900123\n');
    expect(item.destination).toMatch(/^people\//);
  });
  it('an item that only embeds a file the vault does not hold is deleted; one whose file is there is not', async () => {
    const { vault, root } = setup(extra);
    const gone = await analyze(vault, 'inbox/IMG_1.md', '![[IMG_1.jpg]]\n');
    expect(gone.suggested_action).toBe('delete');
    writeFiles(root, { 'inbox/attachments/IMG_2.jpg': 'jpeg bytes' });
    const there = await analyze(vault, 'inbox/IMG_2.md', '![[IMG_2.jpg]]\n');
    expect(there.suggested_action).not.toBe('delete');
  });
});
