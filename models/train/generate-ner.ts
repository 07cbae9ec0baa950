/**
 * Builds the NER training corpus: templates from models/corpora/ner/templates.txt, names from
 * pools.txt, dates and times composed here. Output sentences carry character spans, converted
 * to BIO token labels by `toBio` (the same tokenizer the runtime uses).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EntityType } from '../../electron/core/domains/nlp/contract';
import type { Token } from '../../electron/core/domains/nlp/tokenize';
import type { Rng } from './prng';
import { expand, readSections, type Segment } from './template';

export interface Span {
  start: number;
  end: number;
  type: EntityType;
}
export interface NerExample {
  text: string;
  spans: Span[];
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'Jun', 'Jul', 'Aug', 'Sep', 'Sept', 'Oct', 'Nov', 'Dec'];
const NUM_WORDS = ['two', 'three', 'four', 'five', 'six', 'a couple of', 'a few', '2', '3', '10'];
const ORG_WORDS = ['Blue', 'River', 'Summit', 'Atlas', 'Nova', 'Pine', 'Crescent', 'Harbor', 'Iron', 'Silver', 'Maple', 'Granite', 'Vertex', 'Beacon', 'Kestrel', 'Orchid', 'Juniper', 'Falcon', 'Sable', 'Tundra', 'Copper', 'Willow', 'Echo', 'Polaris', 'Lumen'];
const ORG_SUFFIX = ['Labs', 'Inc.', 'Group', 'Capital', 'Health', 'Systems', 'Bank', 'Foundation', 'Studios', 'Partners', 'Robotics', 'Analytics', 'Ltd', 'GmbH', 'Consulting', 'Software', 'Logistics', 'Media', 'Ventures', 'Energy'];
const TITLES = ['Dr.', 'Dr', 'Prof.', 'Mr.', 'Ms.', 'Mrs.', 'Professor', 'Dr.'];

const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

function makeDate(rng: Rng): string {
  const day = 1 + rng.int(28);
  const month = rng.pick(MONTHS);
  const year = 2024 + rng.int(5);
  const wd = rng.pick(WEEKDAYS);
  const forms: Array<() => string> = [
    () => rng.pick(['today', 'tomorrow', 'yesterday', 'the day after tomorrow']),
    () => `${rng.pick(['next', 'last', 'this'])} ${rng.pick([wd, 'week', 'month', 'year', 'quarter', 'weekend', 'spring', 'summer', 'fall', 'winter'])}`,
    () => wd,
    () => `${month} ${rng.pick([String(day), ordinal(day)])}`,
    () => `${rng.pick([String(day), ordinal(day)])} ${rng.pick([month, rng.pick(MONTH_ABBR)])}`,
    () => `${month} ${day}, ${year}`,
    () => `${month} ${year}`,
    () => `the ${ordinal(day)} of ${month}`,
    () => `the ${ordinal(day)}`,
    () => `Q${1 + rng.int(4)} ${year}`,
    () => `Q${1 + rng.int(4)}`,
    () => `H${1 + rng.int(2)} ${year}`,
    () => `${year}-${String(1 + rng.int(12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    () => `${1 + rng.int(12)}/${day}`,
    () => `${rng.pick(NUM_WORDS)} ${rng.pick(['days', 'weeks', 'months', 'years'])}${rng.chance(0.4) ? ' ago' : ''}`,
    () => `the end of ${rng.pick(['the month', 'the week', 'the year', 'the quarter', month])}`,
    () => `${rng.pick(['early', 'mid', 'late'])} ${month}`,
    () => `${rng.pick(['Christmas', 'New Year\'s Eve', 'Easter', 'Diwali', 'Eid', 'Thanksgiving', 'Lunar New Year'])}`,
    () => String(year),
    () => `${rng.pick(['next', 'this'])} ${wd}`,
    () => `${rng.pick(WEEKDAYS)} the ${ordinal(day)}`,
    () => `${day} ${month} ${year}`,
    () => `${month} ${day}-${Math.min(31, day + 1 + rng.int(4))}`,
    () => `every ${rng.pick([wd, 'week', 'month', 'morning', 'other week', 'quarter'])}`,
    () => `${rng.pick(['in', 'since', 'until'])} ${rng.pick([month, String(year), `${month} ${year}`])}`,
    () => `${rng.pick(['Black Friday', 'Labor Day', 'Boxing Day', 'Halloween', 'Valentine\'s Day', 'Mother\'s Day'])}`,
  ];
  return rng.pick(forms)();
}

function makeTime(rng: Rng): string {
  const h = 1 + rng.int(12);
  const m = rng.pick(['00', '15', '30', '45', '10', '20']);
  const forms: Array<() => string> = [
    () => `${h}${rng.pick(['am', 'pm', ' am', ' pm', 'AM', 'PM', ' p.m.', ' a.m.'])}`,
    () => `${h}:${m}${rng.pick(['', 'am', 'pm', ' am', ' pm'])}`,
    () => `${String(rng.int(24)).padStart(2, '0')}:${m}`,
    () => `${String(rng.int(24)).padStart(2, '0')}:${m} ${rng.pick(['UTC', 'CET', 'PST', 'EST', 'GMT'])}`,
    () => rng.pick(['noon', 'midnight', 'tonight', 'this morning', 'this afternoon', 'this evening', 'tomorrow morning', 'tomorrow night']),
    () => `${rng.pick(WEEKDAYS)} ${rng.pick(['morning', 'afternoon', 'evening', 'night'])}`,
    () => `${h} o'clock`,
    () => `half past ${rng.pick(['two', 'three', 'four', 'nine', 'ten'])}`,
    () => `${rng.pick(['20', '30', '45', 'ten', 'fifteen'])} minutes`,
  ];
  return rng.pick(forms)();
}

export function generateNerCorpus(corporaDir: string, rng: Rng, count: number): NerExample[] {
  const dir = path.join(corporaDir, 'ner');
  const templates = fs.readFileSync(path.join(dir, 'templates.txt'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const pools = readSections(fs.readFileSync(path.join(dir, 'pools.txt'), 'utf8'));

  const person = (): Segment[] => {
    const first = rng.pick(pools.first);
    const last = rng.pick(pools.last);
    const r = rng.next();
    let name: string;
    if (r < 0.3) name = first;
    else if (r < 0.72) name = `${first} ${last}`;
    else if (r < 0.8) name = `${first[0]}. ${last}`;
    else if (r < 0.86) name = `${first} ${rng.pick('ABCDEFGHJKLMNPRST'.split(''))}. ${last}`;
    else if (r < 0.9) name = `${first[0]}. ${rng.pick('ABCDEFGHJKLMNPRST'.split(''))}. ${last}`;
    else name = last;
    if (rng.chance(0.06)) name = name.toLowerCase();
    const titled = name === last || rng.chance(0.12);
    return titled ? [{ text: `${rng.pick(TITLES)} ` }, { text: name, type: 'PERSON' }] : [{ text: name, type: 'PERSON' }];
  };
  const org = (): Segment[] => {
    const place = () => rng.pick(pools.gpe).replace(/^the /, '');
    const surname = () => rng.pick(pools.last);
    const made: Array<() => string> = [
      () => `${rng.pick(ORG_WORDS)} ${rng.pick(ORG_SUFFIX)}`,
      () => `${rng.pick(['University', 'Bank', 'Ministry', 'Institute', 'Port', 'Museum'])} of ${rng.pick([place(), 'Health', 'Education', 'Finance', 'Technology', 'Modern Art'])}`,
      () => `${place()} ${rng.pick(['University', 'Bank', 'City Council', 'General Hospital', 'Airlines', 'Water'])}`,
      () => `${surname()} & ${rng.pick(['Partners', 'Sons', 'Co.', surname()])}`,
      () => `${surname()} ${rng.pick(['LLP', 'Legal', 'Dental', 'Architects', 'Motors', 'Bakery'])}`,
    ];
    let name = rng.chance(0.6) ? rng.pick(pools.org) : rng.pick(made)();
    if (rng.chance(0.08)) name = name.toLowerCase();
    return name.startsWith('the ') ? [{ text: 'the ' }, { text: name.slice(4), type: 'ORG' }] : [{ text: name, type: 'ORG' }];
  };
  const product = (): Segment[] => {
    const name = rng.pick(pools.product);
    return [{ text: rng.chance(0.2) ? name.toLowerCase() : name, type: 'PRODUCT' }];
  };
  const gpe = (): Segment[] => {
    let name = rng.pick(pools.gpe);
    if (rng.chance(0.08)) name = name.toLowerCase();
    return name.startsWith('the ') ? [{ text: 'the ' }, { text: name.slice(4), type: 'GPE' }] : [{ text: name, type: 'GPE' }];
  };
  const fill = (slot: string): Segment[] => {
    switch (slot) {
      case 'PERSON':
        return person();
      case 'ORG':
        return org();
      case 'PRODUCT':
        return product();
      case 'GPE':
        return gpe();
      case 'DATE': {
        let d = makeDate(rng);
        // "in June", "since 2024": the preposition is context, not part of the date.
        const prep = /^(in|since|until) /.exec(d);
        if (prep) {
          d = d.slice(prep[0].length);
          return [{ text: prep[0] }, { text: d, type: 'DATE' }];
        }
        // "on Tuesday", "by March 3rd": the preposition stays outside the span.
        return /^(?:today|tomorrow|yesterday|next|last|this|the|in|since|until|every|\d|Q|H)/i.test(d) || rng.chance(0.4) ? [{ text: d, type: 'DATE' }] : [{ text: `${rng.pick(['on', 'by', 'before'])} ` }, { text: d, type: 'DATE' }];
      }
      case 'TIME':
        return [{ text: makeTime(rng), type: 'TIME' }];
      default:
        throw new Error(`unknown NER slot {${slot}}`);
    }
  };

  const out: NerExample[] = [];
  for (let i = 0; i < count; i++) {
    const segs = expand(templates[i % templates.length], rng, fill);
    let text = '';
    const spans: Span[] = [];
    for (const s of segs) {
      const piece = text === '' ? s.text.replace(/^\s+/, '') : s.text;
      if (s.type) spans.push({ start: text.length, end: text.length + piece.length, type: s.type as EntityType });
      text += piece;
    }
    // Collapse doubled spaces without moving spans: only trailing whitespace is trimmed.
    text = text.replace(/\s+$/, '');
    if (rng.chance(0.15)) text = text.toLowerCase();
    else if (rng.chance(0.5)) text = text.charAt(0).toUpperCase() + text.slice(1);
    if (rng.chance(0.3) && !/[?!.]$/.test(text)) text += rng.pick(['.', '!', '?', ' :)', ' lol']);
    out.push({ text, spans });
  }
  return out;
}

/** Token BIO labels for one example; tokens wholly inside a span take its type. */
export function toBio(tokens: readonly Token[], spans: readonly Span[]): string[] {
  return tokens.map((t, i) => {
    const s = spans.find((sp) => t.start >= sp.start && t.end <= sp.end);
    if (!s) return 'O';
    const prevInside = i > 0 && tokens[i - 1].start >= s.start && tokens[i - 1].end <= s.end;
    return `${prevInside ? 'I' : 'B'}-${s.type}`;
  });
}

/** Inline-annotated lines: "met [Amara Singh](PERSON) in [Lagos](GPE)". */
export function parseAnnotated(line: string): NerExample {
  const spans: Span[] = [];
  let text = '';
  const re = /\[([^\]]+)\]\((PERSON|ORG|PRODUCT|GPE|DATE|TIME)\)/g;
  let last = 0;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    text += line.slice(last, m.index);
    spans.push({ start: text.length, end: text.length + m[1].length, type: m[2] as EntityType });
    text += m[1];
    last = m.index + m[0].length;
  }
  text += line.slice(last);
  return { text, spans };
}

export function readAnnotated(file: string): NerExample[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).map(parseAnnotated);
}
