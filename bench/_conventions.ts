/**
 * What vault-conventions.ts learns from a vault, and what it costs: per set the per-kind hit rates on
 * the vault's own notes (pseudo-items, each left out of its folder's evidence), the shapes that own a
 * folder (`--shapes`), and the time after the profiles are built.
 *   npx tsx bench/_conventions.ts [set-dir …] [--shapes]     (default: every blind and in-sample set)
 *   npx tsx bench/_conventions.ts --scale=50000              (a generated vault, cost only)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VaultIndex, catchUp } from '../electron/core/domains/vault';
import { isDestination } from '../electron/core/domains/inbox';
import { folderProfiles } from '../electron/core/domains/inbox/profiles';
import { learnVaultConventions, selfFit } from '../electron/core/domains/inbox/vault-conventions';
import { BLIND_SETS, FIXTURE, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET, DEV5_SET } from './_vault-eval';
import { generateVault } from './_scale-gen';

const args = process.argv.slice(2);
const scale = Number(args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 0);
const dirs = args.filter((a) => !a.startsWith('--'));
const vaults: Array<[string, string]> = [];
if (scale) {
  const dir = path.join(os.tmpdir(), `mailroom-probe-${scale}`);
  if (!fs.existsSync(path.join(dir, 'done'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    generateVault(path.join(dir, 'vault'), scale);
    fs.writeFileSync(path.join(dir, 'done'), '');
  }
  vaults.push([`generated-${scale}`, path.join(dir, 'vault')]);
} else for (const d of dirs.length ? dirs.map((x) => path.resolve(x)) : [...BLIND_SETS, FIXTURE, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET, DEV5_SET]) vaults.push([path.basename(d), path.join(d, 'vault')]);

for (const [name, root] of vaults) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-conv-'));
  const index = new VaultIndex(path.join(tmp, 'index.db'));
  try {
    catchUp(index, root);
    let t = performance.now();
    const p = folderProfiles(index, isDestination);
    const profilesMs = performance.now() - t;
    t = performance.now();
    const c = learnVaultConventions(p, index, isDestination);
    const ms = performance.now() - t;
    t = performance.now();
    const fit = selfFit(p, c, isDestination);
    const fitMs = performance.now() - t;
    const rates = Object.entries(fit.hits).map(([k, v]) => `${k} ${v.hits}/${v.n} → ${v.rate}`).join(', ');
    console.log(`${name.padEnd(16)} notes ${p.docs} sampled ${fit.sampled} | ${rates} | shapes owning a folder ${c.shapeFolders.size} | profiles ${profilesMs.toFixed(0)} ms, shapes ${ms.toFixed(0)} ms, self-fit ${fitMs.toFixed(0)} ms`);
    if (args.includes('--shapes')) for (const [k, fs2] of c.shapeFolders) console.log(`   ${k} → ${fs2.map(([f, w]) => `${f} (${w.toFixed(2)})`).join(', ')}`);
  } finally {
    index.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
