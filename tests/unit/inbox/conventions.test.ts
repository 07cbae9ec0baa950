import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../../../electron/core/domains/vault';
import { analyzeOne, defaultRules, parseRules, ExampleStore, type AnalysisItem } from '../../../electron/core/domains/inbox';
import { learntAdjustment, type Memory } from '../../../electron/core/domains/inbox/learn';
import { marginFactor } from '../../../electron/core/domains/inbox/analyze';
import { folderLabel, folderProfiles } from '../../../electron/core/domains/inbox/profiles';
import { shapeTerms, withoutUrls } from '../../../electron/core/domains/inbox/shapes';
import { tempDir, writeFiles } from '../../helpers/owner';

/**
 * Filing that does not depend on one vault's naming habits: numbered PARA folders, emoji and
 * dates in folder names, people folders known by what they hold, rules applied in the order
 * written into the folder they render to, shapes of captures (quotations, links, dated titles),
 * and learning from corrections that carries over to the next items.
 */
const now = Date.parse('2026-02-05T12:00:00Z');
const indexes: VaultIndex[] = [];
const dbs: Database.Database[] = [];
afterEach(() => {
  for (const i of indexes.splice(0)) i.close();
  for (const d of dbs.splice(0)) d.close();
});

function setup(files: Record<string, string>) {
  const root = tempDir('mailroom-conv-vault-');
  writeFiles(root, files);
  const index = new VaultIndex(path.join(tempDir('mailroom-conv-idx-'), 'index.db'));
  indexes.push(index);
  catchUp(index, root);
  return { root, index, resolve: (rel: string) => resolveInVault(root, normalizeRel(rel)) };
}

const person = (name: string, text: string) => `---\ntype: person\n---\n# ${name}\n\n${text}\n`;

describe('naming conventions', () => {
  it('reads a folder by its words, not its numbering, dates or emoji', () => {
    expect(folderLabel('10 Projects/11 Kitchen Renovation')).toBe('Kitchen Renovation');
    expect(folderLabel('40 People')).toBe('People');
    expect(folderLabel('2025-03 Lisbon trip')).toBe('Lisbon trip');
    expect(folderLabel('🎓 PhD/✒️ Calligraphy')).toBe('Calligraphy');
    expect(folderLabel('1.2 Admin')).toBe('Admin');
    expect(folderLabel('kestrel')).toBe('kestrel');
  });

  it('knows a people folder by its numbered name or by what its notes are, and files a new person there', async () => {
    const vault = setup({
      '40 People/grace-okafor.md': '# Grace Okafor\n\nWard sister; does the rota.\n',
      'crew/ana-silva.md': person('Ana Silva', 'Rigger on the boat.'),
      'crew/joe-bloggs.md': person('Joe Bloggs', 'Skipper, twenty years at sea.'),
      'crew/mo-farah.md': person('Mo Farah', 'Cook; vegetarian menus.'),
      'ward/shift-pattern.md': '# Shift pattern\n\nLong days and nights on the ward; the rota comes out six weeks ahead.\n',
    });
    const p = folderProfiles(vault.index, (f) => !f.startsWith('inbox') && !f.startsWith('_'));
    expect(p.isPeople('40 People')).toBe(true);
    expect(p.isPeople('crew')).toBe(true);
    expect(p.isPeople('ward')).toBe(false);
    // Grace is a person note: a rota swap that names her goes where the rota lives, not to the people folder.
    const swap = (await analyzeOne('inbox/swap.md', '# Rota swap\n\nSwapped my long day with Tom; told Grace, the rota on the ward is updated.\n', { vault, rules: defaultRules(), now })).item;
    expect(swap.destination).toMatch(/^ward\//);
  });

  it('a new person whose e-mail address repeats their name still gets a people note', async () => {
    const vault = setup({
      'Contacts/prof-hale.md': '# Prof. Hale\n\nPrimary supervisor, seagrass ecologist.\n',
      'Contacts/ines-duarte.md': '# Ines Duarte\n\nFlatmate, medical student.\n',
      'Lab/protocols.md': '# Lab protocols\n\nLoss on ignition: dry the cores, burn at 450 degrees.\n',
    });
    const item = (await analyzeOne('inbox/t.md', '# Tariq Rahman\n\nTariq Rahman — PhD student in oceanography, works on kelp; met at the seminar; email t.rahman@uni.example.\n', { vault, rules: defaultRules(), now })).item;
    expect(item.destination).toMatch(/^Contacts\//);
  });

  it('files into the folder a rule renders to, and the first rule written wins when two match', async () => {
    const vault = setup({
      '50 Journal/2026/2026-01-05.md': '# 2026-01-05\n\nMood: hopeful. Calm day.\n',
      '20 Areas/27 Hens/the-hens.md': '# The hens\n\nFour hens; layers pellets; the coop.\n',
    });
    const rules = parseRules(
      '# Rules\n\n### Journal\n- **Pattern:** content has "Mood:"\n- **Destination:** `50 Journal/{year}/{date}.md`\n\n## Loose rules\n- anything about the hens → 20 Areas/27 Hens/\n',
    );
    const item = (await analyzeOne('inbox/2026-02-03.md', '# 2026-02-03\n\nMood: tired. Three nights done; fed the hens.\n', { vault, rules, now })).item;
    expect(item.destination).toBe('50 Journal/2026/2026-02-03.md');
    expect(item.rules_matched).toEqual(['Journal', 'anything about the hens → 20 Areas/27 Hens/']);
  });
});

describe('shapes of captures', () => {
  it('names links, quotations, amounts, dated and personal titles, questions', () => {
    expect(shapeTerms('"Caring for myself is not self-indulgence, it is self-preservation."', 'Audre Lorde')).toEqual(expect.arrayContaining(['~quote', '~nametitle']));
    expect(shapeTerms('https://example.org/a — a guideline', 'VRIII')).toContain('~link');
    expect(shapeTerms('Receipt: £120 from the shop', 'Shoes')).toContain('~money');
    expect(shapeTerms('Slept till 2.', '2026-02-03')).toContain('~datetitle');
    expect(shapeTerms('Why does everything happen at 3am?', 'Thought')).toContain('~question');
    expect(shapeTerms('A plain line of text.', 'Plain')).toEqual([]);
    expect(withoutUrls('see https://www.bbc.co.uk/news/x now')).toBe('see  bbc  now');
  });

  it('a quotation with no shared words goes where the vault keeps quotations', async () => {
    const vault = setup({
      'Reading/nightingale.md': '# Florence Nightingale\n\n"Nursing is an art, and a fine one."\n',
      'Reading/buscaglia.md': '# Leo Buscaglia\n\n"Too often we underestimate the power of a touch."\n',
      'Reading/angelou.md': '# Maya Angelou\n\n"People will never forget how you made them feel."\n',
      'Reading/reading-list.md': '# Reading list\n\nBeing Mortal, Intensive Care.\n',
      'Garden/beans.md': '# Beans\n\nRunner beans on hazel poles; water in the evening.\n',
      'Garden/compost.md': '# Compost\n\nTurn the heap monthly; coffee grounds and leaves.\n',
      'Garden/sowing.md': '# Sowing\n\nBroad beans in February, tomatoes indoors in March.\n',
      'Work/rota.md': '# Rota\n\nLong days and nights; requests by the first of the month.\n',
      'Work/handover.md': '# Handover\n\nSituation, background, assessment, recommendation for every bed.\n',
      'Work/training.md': '# Training\n\nIV pumps e-learning, then a practical session.\n',
    });
    const item = (await analyzeOne('inbox/q.md', '# Audre Lorde\n\n"Caring for myself is not self-indulgence, it is self-preservation."\n', { vault, rules: defaultRules(), now })).item;
    expect(item.destination).toMatch(/^Reading\//);
    expect(item.confidence).toBeLessThan(0.8);
  });
});

describe('confidence from margins', () => {
  it('a tie costs 40%, a clear lead nothing', () => {
    expect(marginFactor([['a', 5], ['b', 5]])).toBeCloseTo(0.6);
    expect(marginFactor([['a', 5], ['b', 2]])).toBe(1);
    expect(marginFactor([['a', 5]])).toBe(1);
    expect(marginFactor([['a', 5], ['b', 3.75]])).toBeCloseTo(0.8);
  });
});

describe('learning carries over to the next items', () => {
  // Materials bought for the kitchen project: the words are the how-to folder's (tiles, grout),
  // the person files purchases with the project.
  const VAULT = {
    '30 Resources/34 DIY/how-to-tile.md': '# How to tile a splashback\n\nStart from the centre line, spacers, 3 mm grout gaps, wipe the grout after 20 minutes.\n',
    '30 Resources/34 DIY/grouting.md': '# Grouting\n\nMix small batches of grout, diagonal strokes with the float, seal the grout after a week.\n',
    '30 Resources/34 DIY/silicone.md': '# Silicone sealing\n\nCut the nozzle at 45 degrees, mask both sides of the joint, smooth it.\n',
    '10 Projects/11 Kitchen/kitchen-plan.md': '# Kitchen plan\n\nGalley layout, sink under the window, units from Kasia, budget fourteen thousand.\n',
    '10 Projects/11 Kitchen/kitchen-budget.md': '# Kitchen budget\n\nUnits, worktops, appliances, electrics, plastering, flooring, contingency.\n',
    '20 Areas/Health/asthma.md': '# Asthma\n\nBrown inhaler twice daily; peak flow in cold air.\n',
  };
  const ITEMS = [
    ['inbox/tiles.md', '# Tile order\n\nOrdered 6 m² of metro tiles for the splashback, £212, delivery Thursday.\n'],
    ['inbox/grout.md', '# Grout order\n\nOrdered grey grout and a grout float, £24, delivery Friday.\n'],
    ['inbox/adhesive.md', '# Adhesive order\n\nOrdered two tubs of tile adhesive and spacers, £38, delivery Monday.\n'],
    ['inbox/sealant.md', '# Sealant order\n\nOrdered silicone sealant and a gun for the joint along the worktop, £16, delivery Tuesday.\n'],
  ] as const;
  const KITCHEN = '10 Projects/11 Kitchen';

  it('after two corrections the next orders go to the project', async () => {
    const vault = setup(VAULT);
    const db = new Database(':memory:');
    dbs.push(db);
    const store = new ExampleStore(db, () => now);
    const run = async (rel: string, text: string, withMemory: boolean) =>
      (await analyzeOne(rel, text, { vault, rules: defaultRules(), now, memory: withMemory ? (p) => store.memory(p) : undefined })).item;
    const cold: AnalysisItem[] = [];
    for (const [rel, text] of ITEMS) cold.push(await run(rel, text, false));
    // Without learning, the words of the how-to notes win for every order.
    expect(cold.filter((i) => i.destination?.startsWith(KITCHEN + '/')).length).toBeLessThan(ITEMS.length);
    for (const [rel, text] of ITEMS.slice(0, 2)) {
      const s = await run(rel, text, true);
      store.record([
        {
          batch_id: null,
          path: rel,
          title: /^#\s+(.+)$/m.exec(text)![1],
          text,
          action: 'move',
          folder: null,
          destination: `${KITCHEN}/${path.posix.basename(rel)}`,
          suggested_action: s.suggested_action,
          suggested_destination: s.destination,
          suggested_confidence: s.confidence,
          origin: 'review',
        },
      ]);
    }
    for (const [rel, text] of ITEMS.slice(2)) {
      const warm = await run(rel, text, true);
      expect(warm.destination, rel).toMatch(new RegExp(`^${KITCHEN}/`));
    }
  });
});

describe('what became of earlier suggestions', () => {
  const memory = (rows: Array<[string, string, number]>): Memory => {
    const outcomes: Memory['outcomes'] = new Map();
    for (const [from, to, n] of rows) {
      const o = outcomes.get(from) ?? { accepted: 0, corrected: new Map<string, number>() };
      if (from === to) o.accepted += n;
      else o.corrected.set(to, (o.corrected.get(to) ?? 0) + n);
      outcomes.set(from, o);
    }
    return { examples: [], decisions: [], prototypes: new Map(), outcomes, entities: new Map() };
  };

  it('one correction is not a habit; three with no acceptance put the other folder first, and acceptances hold it back', () => {
    const ranked: Array<[string, number]> = [['a', 10], ['b', 1]];
    expect(learntAdjustment(memory([['a', 'b', 1]]), ranked).ranked[0][0]).toBe('a');
    const three = learntAdjustment(memory([['a', 'b', 3]]), [['a', 10]]);
    expect(three.ranked[0][0]).toBe('b');
    expect(three.swapped).toEqual({ from: 'a', to: 'b', n: 3 });
    expect(learntAdjustment(memory([['a', 'b', 3], ['a', 'a', 6]]), ranked).ranked[0][0]).toBe('a');
  });

  it('moves an item only to where the person moved such items: a discounted folder does not hand the lead to a bystander', () => {
    // Suggestions for a were corrected to b; c merely ranks second. c must not win for it.
    const r = learntAdjustment(memory([['a', 'b', 1]]), [['a', 10], ['c', 9]]);
    expect(r.ranked[0][0]).toBe('a');
    expect(r.swapped).toBeUndefined();
    expect(r.factor).toBe(1);
  });

  it('lowers the confidence of a folder whose suggestions were often corrected, and leaves a reliable one alone', () => {
    expect(learntAdjustment(memory([['a', 'a', 1], ['a', 'keep', 3]]), [['a', 10]]).factor).toBeLessThan(0.5);
    expect(learntAdjustment(memory([['a', 'a', 8]]), [['a', 10]]).factor).toBe(1);
    expect(learntAdjustment(memory([]), [['a', 10]]).factor).toBe(1);
  });
});
