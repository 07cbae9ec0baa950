/**
 * The tiny template language of the training corpora: "(a|b)" picks one, "[x]" or "[a|b]"
 * is optional, "{slot}" is filled by the caller (and may carry an entity type).
 */
import type { Rng } from './prng';

export interface Segment {
  text: string;
  /** Entity type for NER templates; undefined for plain text. */
  type?: string;
}

type Node = { kind: 'text'; text: string } | { kind: 'slot'; name: string } | { kind: 'alt'; options: Node[][]; optional: boolean };

function parse(src: string): Node[] {
  let i = 0;
  const seq = (stop: string): Node[][] => {
    const options: Node[][] = [[]];
    while (i < src.length) {
      const ch = src[i];
      if (stop.includes(ch)) return options;
      if (ch === '|' && stop) {
        options.push([]);
        i++;
        continue;
      }
      const cur = options[options.length - 1];
      if (ch === '(' || ch === '[') {
        i++;
        const inner = seq(ch === '(' ? ')' : ']');
        i++; // closing bracket
        cur.push({ kind: 'alt', options: inner, optional: ch === '[' });
      } else if (ch === '{') {
        const end = src.indexOf('}', i);
        cur.push({ kind: 'slot', name: src.slice(i + 1, end) });
        i = end + 1;
      } else {
        let j = i;
        while (j < src.length && !'()[]{}|'.includes(src[j])) j++;
        if (j === i) j++; // a lone '|' outside a group is text
        cur.push({ kind: 'text', text: src.slice(i, j) });
        i = j;
      }
    }
    return options;
  };
  return seq('')[0];
}

const cache = new Map<string, Node[]>();

export function expand(template: string, rng: Rng, fill: (slot: string) => Segment[]): Segment[] {
  let nodes = cache.get(template);
  if (!nodes) {
    nodes = parse(template);
    cache.set(template, nodes);
  }
  const out: Segment[] = [];
  const walk = (ns: Node[]) => {
    for (const n of ns) {
      if (n.kind === 'text') out.push({ text: n.text });
      else if (n.kind === 'slot') out.push(...fill(n.name));
      else if (!n.optional || rng.chance(0.5)) walk(rng.pick(n.options));
    }
  };
  walk(nodes);
  return out;
}

export const joinSegments = (segs: Segment[]): string => segs.map((s) => s.text).join('').replace(/\s+/g, ' ').trim();

/** Reads "[name]" sectioned lists, skipping "#" comments and blank lines. */
export function readSections(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let cur: string[] | undefined;
  for (const raw of text.split('\n')) {
    if (raw.startsWith('#')) continue;
    const line = raw.replace(/\r$/, '');
    const h = /^\[([a-z_0-9]+)\]\s*$/.exec(line);
    if (h) {
      cur = out[h[1]] = [];
      continue;
    }
    if (line.trim() && cur) cur.push(line);
  }
  return out;
}
