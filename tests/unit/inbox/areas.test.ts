import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../../../electron/core/domains/vault';
import { analyzeOne, defaultRules } from '../../../electron/core/domains/inbox';
import { faintPlacement, nameTitle, type Evidence } from '../../../electron/core/domains/inbox/analyze';
import { tempDir, writeFiles } from '../../helpers/owner';

/**
 * A boat-builder's vault: an area (yard/) with a hub note that names everyone, and subfolders
 * for jobs and suppliers; a people folder; a mention of someone the vault has no note for.
 */
const VAULT: Record<string, string> = {
  'yard/yard-hub.md': '# Yard hub\n\nThe yard: [[Mo Adeyemi]] runs the saw, [[Lena Fisk]] does the varnish. Jobs and suppliers are in the folders below.\n',
  'yard/lease.md': '# Lease\n\nThe yard lease renews in March; rent paid quarterly to the harbour trust.\n',
  'yard/jobs/dinghy-refit.md': '# Dinghy refit\n\nClient wants the transom replaced and the hull faired; Mo to cut the oak; quote sent, deposit paid.\n',
  'yard/jobs/ketch-decks.md': '# Ketch decks\n\nRecaulk the teak decks for the client; Lena on varnish; invoice at completion.\n',
  'yard/jobs/cutter-refit.md': '# The Cutter — refit for Mr Hale\n\nNew rudder, new garboard planks, caulking below the waterline; Mr Hale wants her back by May.\n',
  'yard/suppliers/timber.md': '# Timber merchants\n\nOak and larch from the sawmill at Burnham; price per cubic metre; delivery on Thursdays; order by phone.\n',
  'yard/suppliers/fastenings.md': '# Fastenings\n\nBronze screws and copper rivets from the chandlery; price list updated yearly; minimum order forty pounds.\n',
  'people/mo-adeyemi.md': '---\naliases: [Mo]\ntype: person\n---\n# Mo Adeyemi\n\nSawyer at the yard since 2019; lives in Wells; phone in contacts.\n',
  'people/lena-fisk.md': '---\naliases: [Lena]\ntype: person\n---\n# Lena Fisk\n\nVarnish and finishing; works at the yard three days a week.\n',
  'people/sam-oduya.md': '---\naliases: [Sam]\ntype: person\n---\n# Sam Oduya\n\nHarbour master; met at the regatta.\n',
  'sailing/regatta.md': '# Regatta\n\nRace day in July; the committee boat; Tomasz Brandt gave the briefing this year.\n',
};

const indexes: VaultIndex[] = [];
afterEach(() => {
  for (const i of indexes.splice(0)) i.close();
});

function setup() {
  const root = tempDir('mailroom-areas-vault-');
  writeFiles(root, VAULT);
  const index = new VaultIndex(path.join(tempDir('mailroom-areas-idx-'), 'index.db'));
  indexes.push(index);
  catchUp(index, root);
  return { root, index, resolve: (rel: string) => resolveInVault(root, normalizeRel(rel)) };
}

const now = Date.parse('2026-03-01T10:00:00Z');

describe('areas, names and faint evidence', () => {
  it('a name that points at an area hub files the item into the subfolder it reads like, not the hub', async () => {
    const vault = setup();
    // Both names are linked from the yard's hub note; what the item says is what the suppliers' notes say.
    const text = 'Mo Adeyemi and Lena Fisk reckon the larch was cheaper at the sawmill.\n';
    const d = await analyzeOne('inbox/larch-price.md', text, { vault, rules: defaultRules(), now });
    expect(d.item.suggested_action).toBe('move');
    expect(d.item.destination).toMatch(/^yard\/suppliers\//);
  });

  it('an item saved as a slug of a new name, introduced on its first line, is a note about that person', async () => {
    expect(nameTitle('tomasz-brandt', 'Tomasz Brandt — race officer (met at the regatta)\n- lives in Cley')).toBe('Tomasz Brandt');
    expect(nameTitle('tickets', 'Tomasz Brandt — race officer')).toBe('tickets');
    const vault = setup();
    // The vault mentions him once ("Tomasz Brandt gave the briefing"), but has no note about him.
    const text = 'Tomasz Brandt — race officer, met at the regatta\n\n- lives in Cley, phone via the club\n- keen on junior sailing\n';
    const d = await analyzeOne('inbox/tomasz-brandt.md', text, { vault, rules: defaultRules(), now });
    expect(d.item.destination).toMatch(/^people\//);
  });

  it('keeps an item whose evidence adds up to almost nothing for any folder', async () => {
    const faint: Evidence[] = [{ kind: 'profile', votes: new Map([['sailing', 3]]), amount: 0.1 }];
    expect(faintPlacement(faint, [['sailing', 3]])).toBe(true);
    expect(faintPlacement([...faint, { kind: 'neighbours', votes: new Map([['sailing', 2]]), amount: 0.4 }], [['sailing', 5]])).toBe(false);
    expect(faintPlacement([{ kind: 'rule', votes: new Map([['sailing', 6]]), amount: 1 }], [['sailing', 6]])).toBe(false);
    // Through the analysis: an item with no evidence at all stays in the inbox.
    const vault = setup();
    const d = await analyzeOne('inbox/perseids.md', 'Perseids peak on the 12th. Go somewhere dark after midnight, lie on a blanket, look north-east.\n', { vault, rules: defaultRules(), now });
    expect(d.item.suggested_action).toBe('keep');
    expect(d.item.destination).toBeNull();
  });

  it('merges an item that asks to be added to "my notes" on what it names, or whose title says it is more of a note', async () => {
    const vault = setup();
    const rules = defaultRules();
    // "add to my Cutter notes": the note named "The Cutter — refit for Mr Hale" (its name part is enough).
    const a = await analyzeOne('inbox/cutter.md', 'add to my Cutter notes:\n\n- rudder pintles fitted; Mr Hale happy with the garboard planks\n', { vault, rules, now });
    expect([a.item.suggested_action, a.item.destination]).toEqual(['merge', 'yard/jobs/cutter-refit.md']);
    // "Cutter - more snags", "… to add to my notes": what the notes are on is named at the start.
    const b = await analyzeOne('inbox/cutter - more snags.md', 'Cutter — 2 more snags to add to my notes, from the survey\n\n1. Garboard seam weeps below the waterline.\n2. Rudder stock worn.\n', { vault, rules, now });
    expect([b.item.suggested_action, b.item.destination]).toEqual(['merge', 'yard/jobs/cutter-refit.md']);
  });
});
