/**
 * What each intent of a taxonomy is about, in words, as triage compares mail with it. A person
 * often writes, inside one intent's description, where something else goes: "Machine-generated
 * alerts are system_alert, not this", "Travel bookings go to travel", "Not contractor work dates
 * (project)", "Unless it is about my family (then family)". Such a clause describes the intent it
 * names, not the one it is written under: its words move there.
 */
import type { Taxonomy } from './config';

export interface IntentDoc {
  id: string;
  /** The description without the clauses that send mail elsewhere, plus the clauses other intents send here. */
  description: string;
  examples: string[];
  /** Clauses moved out of this intent's description (for explanations and tests). */
  movedOut: string[];
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ways an id may be written in prose: "system_alert", "system alert", "system-alert". */
const idPattern = (id: string) => id.split(/[_\s-]+/).map(esc).join('[_\\s-]');

/**
 * The clause of `sentence` that routes to `id`, if the sentence says so: "… are X, not this",
 * "… go(es) to X", "… belong(s) in X", "… (then X)", "not … (X)", "unless … (X)". Undefined when the
 * id is only mentioned ("work trips and family holidays alike").
 */
export function routedClause(sentence: string, id: string): string | undefined {
  const p = idPattern(id);
  const named = new RegExp(`(?<![\\p{L}\\p{N}_])${p}(?![\\p{L}\\p{N}_])`, 'iu');
  if (!named.test(sentence)) return undefined;
  const verb = new RegExp(`\\b(?:go(?:es)?|belongs?|are sent|is sent|route[sd]?|count as|file under)\\s+(?:to|in|into|under|as)?\\s*(?:the\\s+)?${p}\\b|\\b(?:are|is)\\s+${p}\\b[^.]*\\bnot\\s+(?:this|here)\\b|\\b(?:are|is)\\s+${p}\\b`, 'iu');
  const paren = new RegExp(`\\(\\s*(?:then\\s+|see\\s+|→\\s*|->\\s*|=>\\s*)?${p}\\s*\\)`, 'iu');
  if (verb.test(sentence)) return sentence;
  const m = paren.exec(sentence);
  if (!m) return undefined;
  // "Not contractor work dates (project) and not inspections (compliance)": the clause before the parenthesis.
  const before = sentence.slice(0, m.index);
  const start = Math.max(before.lastIndexOf(','), before.lastIndexOf('. ') + 1, before.search(/\band\s+(?:not\s+)?[^,]*$/i), 0);
  const clause = before.slice(start).replace(/^[,\s]*(?:and\s+)?/i, '');
  return /\b(not|unless|except|if|when)\b/i.test(before) || /^\s*(then|see|→|->|=>)/i.test(m[0].slice(1)) ? `${clause}${m[0]}` : undefined;
}

/** Each intent's words with routing clauses moved to the intent they name. */
export function intentDocs(tax: Taxonomy): IntentDoc[] {
  const docs = tax.intents.map((i) => ({ id: i.id, description: i.description, examples: i.examples, movedOut: [] as string[], movedIn: [] as string[] }));
  for (const d of docs) {
    const sentences = d.description.split(/(?<=[.;!?])\s+/);
    const kept: string[] = [];
    for (const s of sentences) {
      let rest = s;
      for (const other of docs) {
        if (other.id === d.id) continue;
        const clause = routedClause(rest, other.id);
        if (!clause) continue;
        // the clause's words, without the words that only point ("not this", the id itself)
        const words = clause.replace(new RegExp(idPattern(other.id), 'giu'), ' ').replace(/\b(not this|not here|then|go(es)? to|belongs? (to|in)|unless|not|are|is)\b/gi, ' ').replace(/[(),.;:!?]+/g, ' ').replace(/\s+/g, ' ').trim();
        if (words) other.movedIn.push(words);
        d.movedOut.push(clause);
        rest = rest.replace(clause, ' ');
      }
      kept.push(rest);
    }
    d.description = kept.join(' ').replace(/\s+/g, ' ').trim();
  }
  return docs.map((d) => ({ id: d.id, description: [d.description, ...d.movedIn].filter(Boolean).join(' '), examples: d.examples, movedOut: d.movedOut }));
}
