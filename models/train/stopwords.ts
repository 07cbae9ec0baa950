/**
 * Ordinary words that must not become gazetteer entries even if some locale lists them as a
 * name or town ("will", "may", "grace", "long"): every lowercase word of the hand-written
 * template and slot text, plus a short list of common English words.
 */
import fs from 'node:fs';
import path from 'node:path';

const COMMON = `the be to of and a in that have it for not on with he as you do at this but his by from they we say her she or an will my one all would there their what so up out if about who get which go me when make can like time no just him know take people into year your good some could them see other than then now look only come its over think also back after use two how our work first well way even new want because any these give day most us is are was were been has had did said may might must shall should long last best still march august june april sun mon wed sat friday monday summer winter spring fall autumn grace hope joy faith rose lily ivy dawn star page bill art mark will rich young king bell brown green white black gray grey stone wood hill lake field ford bank west north south east park hall street lane rock love angel summer sky river cloud rain snow man men woman can may june july chase lane price cash case drew rob sue pat sandy rusty penny ginger sunny sonny skip buck chip dash ace`;

/** The short list of common English words alone (no corpus needed). */
export const commonWords = (): string[] => COMMON.split(/\s+/);

export function stopWords(corporaDir: string): Set<string> {
  const set = new Set(commonWords());
  for (const f of ['intent/templates.txt', 'intent/augment.txt', 'ner/templates.txt']) {
    const text = fs.readFileSync(path.join(corporaDir, f), 'utf8').replace(/\{[^}]*\}/g, ' ');
    for (const w of text.toLowerCase().match(/\p{L}+(?:'\p{L}+)?/gu) ?? []) set.add(w);
  }
  return set;
}
