import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../../../electron/core/domains/vault';
import { analyzeOne, defaultRules, isDestination } from '../../../electron/core/domains/inbox';
import { loadFilingWeights } from '../../../electron/core/domains/inbox/filing-model';
import { folderProfiles } from '../../../electron/core/domains/inbox/profiles';
import { docKeys, learnVaultConventions, PRIOR_HITS, SAMPLE, selfFit, vaultConventions, warmConventions } from '../../../electron/core/domains/inbox/vault-conventions';
import { tempDir, writeFiles } from '../../helpers/owner';

/**
 * The vault teaches how it is organised: folders whose notes share a shape (a title form, template
 * fields) attract items of that shape, and a per-vault fit on the vault's own notes is deterministic
 * and bounded.
 */
const now = Date.parse('2026-02-05T12:00:00Z');
const REPO = path.resolve(__dirname, '..', '..', '..');
const indexes: VaultIndex[] = [];
afterEach(() => {
  for (const i of indexes.splice(0)) i.close();
});

function setup(files: Record<string, string>) {
  const root = tempDir('mailroom-vconv-vault-');
  writeFiles(root, files);
  const index = new VaultIndex(path.join(tempDir('mailroom-vconv-idx-'), 'index.db'));
  indexes.push(index);
  catchUp(index, root);
  return { root, index, resolve: (rel: string) => resolveInVault(root, normalizeRel(rel)) };
}

const CLIENTS = ['Northwind Freight', 'Halcyon Dental', 'Quarry Lane Press'];
const TOPICS = ['warehouse lease', 'patient leaflet', 'catalogue copy', 'board minutes', 'safety manual', 'website terms'];

/** A small business vault: a folder per client (meetings, contacts, rates) and a process folder holding every purchase order. */
function businessVault(): Record<string, string> {
  const files: Record<string, string> = {};
  CLIENTS.forEach((c, i) => {
    const dir = `Work/Clients/${c}`;
    files[`${dir}/${c} overview.md`] = `# ${c} overview\n\n${c} is a client since 202${i}. Main contact at ${c}; invoices go to the ${c} accounts team.\n`;
    files[`${dir}/Call with ${c}.md`] = `# Call with ${c}\n\nTalked about the ${TOPICS[i]} and the style guide ${c} wants; ${c} prefers British spelling.\n`;
    files[`${dir}/${c} rates.md`] = `# ${c} rates\n\nAgreed rate with ${c}: standard per word, rush surcharge for ${c} weekend work.\n`;
  });
  for (let k = 0; k < 8; k++) {
    const c = CLIENTS[k % CLIENTS.length] ?? '';
    const po = 4100 + k * 7;
    files[`Work/Jobs/PO ${po}.md`] = `---\nclient: ${c}\npo: ${po}\nwords: ${1200 + k * 300}\ndeadline: 2026-0${(k % 8) + 1}-1${k}\n---\n# PO ${po} — ${TOPICS[k % TOPICS.length]}\n\n${TOPICS[k % TOPICS.length]} for ${c}; delivered on time.\n`;
  }
  files['Home/Garden/roses.md'] = '# Roses\n\nPruned the climbing roses; feed in spring.\n';
  files['Home/Garden/compost.md'] = '# Compost\n\nTurn the heap monthly; no cooked food.\n';
  return files;
}

describe('document types the vault teaches', () => {
  it('reads shapes from titles, fields and headings, not from word lists', () => {
    const keys = docKeys('PO 4471 Northwind', {}, 'Subject: PO 4471 – new job\n\n- PO : 4471\n- Deadline: Friday\n\n## Notes\nthanks\n');
    expect(keys).toEqual(expect.arrayContaining(['lead:po', 'leadnum:po', 'field:po', 'field:deadline', 'h:notes']));
    expect(docKeys('2026-05-06', { type: 'Daily' }, '')).toEqual(expect.arrayContaining(['start:9999-99-99', 'type:daily', 'field:type']));
    // A title in prose has a first word, but no number after it.
    expect(docKeys('The kitchen worktop', {}, '')).not.toContain('leadnum:kitchen');
  });

  const PO_ITEM = 'Subject: PO 4199 – customs declaration guide\n\n- PO: 4199\n- Words: 2100\n- Deadline: 20 May\n\nFor Northwind Freight, as discussed.\n';

  it('sends a new purchase order to the folder where the vault files POs, although its words name a client', async () => {
    const rel = 'inbox/PO 4199 Northwind Freight.md';
    const vault = setup({ ...businessVault(), [rel]: PO_ITEM });
    const hand = await analyzeOne(rel, PO_ITEM, { vault, rules: defaultRules(), now });
    // Its words point at the client: the client's name and the nearest notes.
    expect(hand.evidence.find((e) => e.kind === 'entity')?.top).toBe('Work/Clients/Northwind Freight');
    expect(hand.evidence.find((e) => e.kind === 'doctype')?.top).toBe('Work/Jobs');
    expect(hand.item.destination).toMatch(/^Work\/Jobs\//);
    expect(hand.item.reasoning).toMatch(/shaped like Work\/Jobs/);
    const weights = loadFilingWeights(REPO);
    expect(weights).toBeDefined();
    const learned = await analyzeOne(rel, PO_ITEM, { vault, rules: defaultRules(), now, weights });
    expect(learned.item.destination).toMatch(/^Work\/Jobs\//);
  });

  it('without that convention in the vault the same purchase order goes to the client', async () => {
    // The same vault, its jobs written as prose: no title form, no fields shared by the folder's notes.
    const files = Object.fromEntries(
      Object.entries(businessVault()).map(([k, v]) => (k.startsWith('Work/Jobs/') ? [k.replace(/PO \d+/, (m) => `job ${m.slice(3)}`), `# ${v.split('# ')[1]?.replace(/^PO \d+ — /, '') ?? 'job'}\n`] : [k, v])),
    );
    const rel = 'inbox/PO 4199 Northwind Freight.md';
    const vault = setup({ ...files, [rel]: PO_ITEM });
    const d = await analyzeOne(rel, PO_ITEM, { vault, rules: defaultRules(), now, weights: loadFilingWeights(REPO) });
    expect(d.evidence.find((e) => e.kind === 'doctype')).toBeUndefined();
    expect(d.item.destination).toMatch(/^Work\/Clients\/Northwind Freight\//);
  });

  it('an item about the same client without the shape stays with the client', async () => {
    const vault = setup({
      ...businessVault(),
      'inbox/northwind call.md': '# Northwind call\n\nCall with Northwind Freight about their style guide: they want British spelling in the customs guide too.\n',
    });
    const text = '# Northwind call\n\nCall with Northwind Freight about their style guide: they want British spelling in the customs guide too.\n';
    const d = await analyzeOne('inbox/northwind call.md', text, { vault, rules: defaultRules(), now, weights: loadFilingWeights(REPO) });
    expect(d.item.destination).toMatch(/^Work\/Clients\/Northwind Freight\//);
  });
});

describe('building the conventions in the background', () => {
  it('gives what a request builds, lets the event loop run, and is finished by a request that needs it meanwhile', async () => {
    const files = businessVault();
    for (let n = 0; n < 1200; n++) files[`Home/Log/entry ${n}.md`] = `# Entry ${n}\n\nA line about day ${n}.\n`;
    const a = setup(files);
    const b = setup(files);
    const pa = folderProfiles(a.index, isDestination);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const warm = await warmConventions(pa, a.index, isDestination, { sliceMs: 1 });
    clearInterval(timer);
    const direct = vaultConventions(folderProfiles(b.index, isDestination), b.index, isDestination);
    expect(warm).toBeDefined();
    expect([...(warm?.shapeFolders ?? [])]).toEqual([...direct.shapeFolders]);
    expect(ticks).toBeGreaterThan(0);
    expect(vaultConventions(pa, a.index, isDestination)).toBe(warm);
    // A request while a background build is under way finishes that build (the same object comes back).
    const c = setup(files);
    const pc = folderProfiles(c.index, isDestination);
    const pending = warmConventions(pc, c.index, isDestination, { sliceMs: 0 });
    const now = vaultConventions(pc, c.index, isDestination);
    expect(await pending).toBe(now);
  });
});

describe('the per-vault fit', () => {
  it('is deterministic and bounded, and a small vault stays near the prior', () => {
    const files: Record<string, string> = {};
    // 600 notes in 12 folders: more notes than the sample.
    for (let f = 0; f < 12; f++) for (let n = 0; n < 50; n++) files[`area-${f}/note-${n}.md`] = `# Entry ${f}-${n}\n\nTopic${f} words topic${f} item ${n % 7} and more text about subject${f}.\n`;
    const a = setup(files);
    const b = setup(files);
    const pa = folderProfiles(a.index, isDestination);
    const ca = learnVaultConventions(pa, a.index, isDestination);
    const cb = learnVaultConventions(folderProfiles(b.index, isDestination), b.index, isDestination);
    const fa = selfFit(pa, ca, isDestination);
    const fb = selfFit(folderProfiles(b.index, isDestination), cb, isDestination);
    expect(fa.sampled).toBe(SAMPLE);
    expect(fa).toEqual(fb);
    expect([...ca.shapeFolders]).toEqual([...cb.shapeFolders]);
    for (const k of ['profile', 'neighbours', 'doctype'] as const) {
      expect(fa.hits[k].rate).toBeGreaterThanOrEqual(0);
      expect(fa.hits[k].rate).toBeLessThanOrEqual(1);
      expect(fa.hits[k].n).toBeLessThanOrEqual(SAMPLE);
    }
    // Each folder's notes say its topic: the vault's own notes are placed by their profile.
    expect(fa.hits.profile.rate).toBeGreaterThan(PRIOR_HITS.profile);
    // The same profiles give the same (cached) conventions, and the owner keeps what analysis reads.
    const cached = vaultConventions(pa, a.index, isDestination);
    expect(vaultConventions(folderProfiles(a.index, isDestination), a.index, isDestination)).toBe(cached);
    expect([...cached.shapeFolders]).toEqual([...ca.shapeFolders]);

    const tiny = setup({ 'a/one.md': '# One\n\nalpha beta\n', 'a/two.md': '# Two\n\ngamma delta\n', 'b/three.md': '# Three\n\nepsilon\n' });
    const pt = folderProfiles(tiny.index, isDestination);
    const ft = selfFit(pt, learnVaultConventions(pt, tiny.index, isDestination), isDestination);
    for (const k of ['profile', 'neighbours', 'doctype'] as const) expect(Math.abs(ft.hits[k].rate - PRIOR_HITS[k])).toBeLessThanOrEqual(0.1);
  });
});
