/** Small text helpers shared by triage, extraction and drafting. */

const STOP = new Set(
  'a an the and or but if of to in on at for from by with about as is are was were be been am i you he she it we they me my your our their this that these those do does did have has had will would can could should shall may might not no yes so than then there here what which who whom when where why how all any some just also very please hi hello dear thanks thank regards best'.split(
    ' ',
  ),
);

/** Lower-cased word tokens with a crude suffix strip, so "invoices"/"invoiced" meet "invoice". */
export function tokens(text: string): string[] {
  return (text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[a-z0-9]+/g) ?? [])
    .filter((t) => t.length > 1 && !STOP.has(t))
    .map(stem);
}

export function stem(t: string): string {
  if (t.length <= 4) return t;
  return t.replace(/(ations?|ing|ed|es|s|ly)$/, '') || t;
}

/** Reply text without quoted history ("> …" lines and "On … wrote:" tails). */
export function latestText(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const l of lines) {
    if (/^\s*On .{4,200}wrote:\s*$/.test(l) || /^-{2,}\s*Original Message\s*-{2,}/i.test(l) || /^_{5,}$/.test(l.trim())) break;
    // Outlook's quoted original in any language ("-----Ursprüngliche Nachricht-----"); a forwarded message is kept.
    if (/^\s*-{3,}\s*\p{L}[\p{L} ']{2,40}?\s*-{3,}\s*$/u.test(l) && !/forward|weiter|transf|inoltr|reenv|doorgest|vidaresend|videresend/i.test(l)) break;
    if (/^\s*>/.test(l)) continue;
    out.push(l);
  }
  return out.join('\n').trim();
}

export function containsPhrase(text: string, phrase: string): boolean {
  const p = phrase.toLowerCase().trim();
  if (!p) return false;
  const esc = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${esc}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}
