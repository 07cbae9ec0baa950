import fs from 'node:fs';
import path from 'node:path';
import { catchUp, type VaultIndex } from '../electron/core/domains/vault';
import { analyzeOne, isDestination } from '../electron/core/domains/inbox/analyze';
import { folderProfiles } from '../electron/core/domains/inbox/profiles';
import { defaultRules } from '../electron/core/domains/inbox/rules';

export async function analyzeForProbe(index: VaultIndex, root: string, words: string[], load: () => string): Promise<void> {
  const inboxDir = path.join(root, 'inbox');
  fs.mkdirSync(inboxDir, { recursive: true });
  const items: Array<[string, string]> = [];
  for (let i = 0; i < 100; i++) {
    const body = Array.from({ length: 40 }, (_, j) => words[(i * 131 + j * 17) % 3000]).join(' ');
    const text = `# ${words[40 + i]} ${words[400 + i]} notes\n\n${body}\n`;
    fs.writeFileSync(path.join(inboxDir, `item-${i}.md`), text);
    items.push([`inbox/item-${i}.md`, text]);
  }
  catchUp(index, root);
  const vault = { root, index, resolve: (rel: string) => path.join(root, rel) };
  let t = performance.now();
  folderProfiles(index, isDestination);
  console.log(`folder profiles built ${(performance.now() - t).toFixed(0)} ms  heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB  load ${load()}`);
  for (let pass = 0; pass < 3; pass++) {
    t = performance.now();
    const out: string[] = [];
    for (const [rel, text] of items) {
      const d = await analyzeOne(rel, text, { vault, rules: defaultRules(), now: Date.now(), taken: new Set() });
      out.push(`${d.item.suggested_action}:${d.item.destination}:${d.item.confidence}`);
    }
    console.log(`analyze 100 items pass ${pass}: ${(performance.now() - t).toFixed(0)} ms  load ${load()}  digest ${hash(out.join('\n'))}`);
  }
  // The generated vault is kept for the next run without its inbox (the bench adds it after the cold index).
  fs.rmSync(inboxDir, { recursive: true, force: true });
  catchUp(index, root);
}

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}
