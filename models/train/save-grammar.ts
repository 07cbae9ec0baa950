/**
 * The compositional grammar of explicit save requests used by the intent generator, and the
 * register noise (chat shorthand, voice dictation, e-mail framing) applied to whole messages.
 * Every function returns a wrapper with {X}/{x} (the message, capitalised or not) like
 * augment.txt's [save_wrappers], or a transformed message; all randomness comes from `rng`.
 */
import type { Intent } from '../../electron/core/domains/nlp/contract';
import type { Rng } from './prng';

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const POLITE = [
  '', '', '', 'please ', 'pls ', 'plz ', 'can you ', 'could you ', 'would you ', 'could you please ', 'can u ', 'could u ', 'pls can you ',
  "I'd like you to ", 'I need you to ', 'i need u to ', 'do me a favour and ', 'kindly ', 'if you could, ', 'just ', 'please just ', 'hey can you ',
  'could you possibly ', 'you should ', 'make sure to ', 'can you quickly ', 'would you be able to ', 'be a star and ', 'go ahead and ', 'quickly ', "I'd appreciate it if you'd ", 'it would be great if you could ', 'can I get you to ', 'I want you to ', 'u mind to ',
];
const OBJ = ['this', 'that', 'this one', 'this bit', 'this info', 'it', 'the following', 'this detail', 'that for me', 'this for me', 'these', 'that one', 'the details'];
/** Object nouns that name what is kept, per saveable intent ("save this preference"). */
const OBJ_NOUN: Partial<Record<Intent, string[]>> = {
  SAVE_PREFERENCE: ['preference', 'one', 'detail', 'bit'],
  SAVE_DECISION: ['decision', 'one', 'detail', 'outcome'],
  SAVE_FACT: ['fact', 'detail', 'number', 'info', 'one', 'date', 'code', 'address'],
  UPDATE_INFO: ['update', 'change', 'correction', 'new info', 'one', 'new one', 'new details'],
};
const CATEGORY = ['important', 'health', 'family', 'travel', 'work', 'house stuff', 'kids', 'money', 'admin', 'personal', 'misc', 'school', 'car', 'me'];
const VERB_DEST = [
  'hang onto {o}', 'hang on to {o}', 'hold on to {o}', 'hold onto {o}', 'keep hold of {o}', 'keep {o} handy', 'keep {o} on file', 'keep {o} somewhere safe',
  'stick {o} in your notes', 'stick {o} in your memory', 'pop {o} in your notes', 'put {o} in my profile', 'put {o} on record', 'put {o} in your memory',
  'put {o} in the notes', 'file {o} away', 'file {o} under {cat}', 'file {o} in the {cat} folder', 'save {o} for later', 'save {o} for next time',
  'save {o} somewhere', 'save {o}', 'save {o} to memory', 'save {o} in my notes', 'store {o} somewhere', 'store {o} for future reference', 'store {o}',
  'log {o}', 'log {o} for me', 'retain {o}', 'add {o} to my profile', 'add {o} to your notes', 'add {o} to what you know about me', 'add {o} to my file',
  'add {o} to my notes', 'add {o} to your memory', 'make a note of {o}', 'take note of {o}', 'keep a note of {o}', 'keep track of {o}', 'keep a record of {o}',
  'make a record of {o}', "don't lose {o}", 'remember {o}', 'remember {o} for next time', 'remember {o} for me', 'jot {o} down', 'write {o} down', 'note {o} down',
  'note {o} somewhere', 'get {o} down somewhere', 'take {o} down', 'tuck {o} away for later', 'squirrel {o} away', 'keep {o} in the back of your mind',
  'keep {o} in your back pocket', 'memorise {o}', 'memorize {o}', 'commit {o} to memory', 'bookmark {o}', 'bookmark {o} for later', 'pin {o}',
  'flag {o} for later', 'keep {o} noted', 'keep {o} for reference', 'archive {o} for me', 'keep {o} on record', 'stash {o} away', 'stash {o} somewhere',
  'squirrel {o} away for me', 'register {o} somewhere', 'record {o}', 'record {o} for me', 'write {o} down somewhere', 'keep {o} safe', 'tuck {o} in your memory',
  'save {o} to my file', 'file {o} with my stuff', 'note {o} for me', 'remember {o} going forward', 'hold on to {o} for later', 'put {o} somewhere safe',
 'write {o} in my {cat} log', 'add {o} to my {cat} notes', 'put {o} in my {cat} journal', 'stick {o} in the {cat} log', 'add {o} to the decision log', 'add {o} to my prefs',
];
const THAT = [
  'jot down that', 'note down that', 'log that', 'put down somewhere that', 'add to my profile that', 'add to your notes that', 'store the fact that',
  'keep a record that', 'make sure you know that', 'make a note that', 'remember that', 'keep in mind that', 'record that', 'write down that',
  'update your notes:', 'update my profile:', 'note for the future:', 'add to your memory that', 'keep track of the fact that', 'file away that',
  'note that', 'make note that', 'take note that', 'keep a note that', 'save the fact that', 'bear in mind that', 'please note that', 'remember for the future that',
  'add to my notes that', 'put in your memory that', 'put it in the notes that', 'memorise that', 'keep on file that', 'bookmark the fact that',
];
/** Bare clauses with no "that" or colon: "remember my gate code is 2291", "keep a note i prefer aisle seats". */
const BARE = ['remember', "don't forget", 'dont forget', 'note', 'make note', 'keep a note', 'i want you to remember', 'i want u to remember', 'you should remember',
  'remember for the future', 'make a mental note', 'never forget', 'keep in mind', 'can you remember', 'please remember', 'pls remember', 'save', 'log', 'note down', 'rmbr', 'rembr', 'pls rmbr', 'please to remember', 'rmbr that', 'for future chats, remember', 'in future conversations, remember',
];
const GERUND = ['noting', 'amending', 'updating', 'remembering', 'saving', 'logging', 'keeping a note of', 'keeping track of', 'filing away', 'jotting down', 'writing down', 'storing', 'bookmarking'];
const PARTICIPLE_LEAD = ['noting for later', 'noting down', 'logging this', 'saving this for you', 'filing this', 'noting this for future reference', 'recording this', 'jotting this down'];
const MARKERS = [
  'for the record', 'for your records', 'heads up for later', 'worth remembering', 'for your memory banks', 'something to file', 'note for later',
  'for future reference', 'remember for next time', 'for next time', 'note to self', 'for safekeeping', 'worth remembering about me', 'quick one for your notes',
  'for your notes', 'fyi for later', 'one to remember', 'keep in mind going forward', 'save for later', 'for later', 'for future ref', 'nb for later',
  'memo to self', 'one for the notes', 'for the file', 'something to remember', 'note for future', 'for posterity', 'save this', 'bookmark this',
  'remember this', 'note', 'nb', 'keep this', 'log this', 'please save', 'for the future', 'note for you to keep',
 'for future chats', 'for all future conversations', 'in future chats', 'mem this', 'rmbr this', 'for future convos', 'add to my prefs', 'add to the decision log',
];
const TRAIL = ['', '', ' for me', ' please', ' pls', ' thanks', ' for later', ', thanks!', ' going forward', ' so you can remind me later', ' thx', ' ta', ' cheers', ' ok?', ' x'];
/** Requests that follow the message ("…. can you remember that for me"). */
const AFTER = [
  'can you remember that', 'remember that', 'please remember that', 'worth keeping in mind', 'keep that in mind', 'save that somewhere', 'note that down',
  'write that down for me', 'can you keep that on record', 'file that under {cat}', 'bookmark that', 'keep that noted', 'you should remember that',
  'hang onto that', 'log that', 'put that in my notes', 'store that', 'make a note', 'noted?', 'keep a note of that', "don't let me forget",
  'save it somewhere', 'can you put that in your notes', 'can you add that to my profile', 'please keep a record of that', 'that one is worth remembering',
  'note it', 'save it', 'log it', 'remember it', 'keep it', 'store it', 'file it', 'note that', 'save that', 'keep that', 'remember this one', 'got that?',
  'can you remember the new one', 'keep that updated', 'update that', 'can you note it', 'note that for me',
 'can u memorise it', 'can you memorise that', 'worth keeping in your memory', 'make sure that sticks', 'keep that right in your notes', 'please correct it in memory', 'get that right in your notes', 'pls update my {cat} notes', 'write it in my {cat} log', 'remember it right this time', 'can you note that down',
];
/** Corrections aimed at the assistant's memory (UPDATE_INFO). */
const UPDATE = [
  'update your notes: {X}', 'correction for your records: {X}', 'please update my details - {x}', "update what you've got on file: {X}", '{X}. update that in your notes',
  'fix your notes: {X}', 'overwrite the old one: {X}', 'save this instead: {X}', 'change it in your records: {X}', 'scratch the old one, remember {x}',
  'update my profile - {x}', 'can you update your notes? {X}', 'replace what you have with this: {X}', '{X}, please update your records', 'new info, save it: {X}',
  'amend your notes: {X}', 'note the change: {X}', '{X}. can you change that in your memory?', 'heads up, update your notes - {x}', 'correct your records please: {X}',
 'keep it right in your notes: {X}', '{X}. remember it right this time', '{X}. please correct it in memory', '{X}, keep that right in your notes', 'what I said before was wrong, {x}. correct it in memory',
];
/** Why the message is sent: "so you have it for later", "in case I ask again". */
const REASON = [
  'so you have it for later', 'so you know for next time', 'so you can remind me later', "so you don't forget", 'in case I ask later', 'in case I forget',
  'for when I need it', "just so it's on record", "so it's saved somewhere", 'so we have it on file', "I'm telling you so you remember it", 'so you remember it',
  'keep it in case I need it', 'for you to keep', 'for you to remember', "I'll need this later", 'you might need this later', 'so you can look it up later',
];
/** Passive and indirect requests: "can this go in your notes?", "I want this on record". */
const PASSIVE = [
  'can this go in your notes?', 'can you make sure this is saved?', 'I want this on record:', 'I need this saved:', 'this needs saving:', 'please have this noted:',
  'this is one to keep:', 'keeper:', 'this should be saved:', 'I want this remembered:', 'I need you to have this on file:', 'can I get you to remember this?',
  "I'd appreciate it if you'd remember this:", "I'd appreciate you noting this:", 'it would help if you kept this:', 'mind keeping this for me?',
  'can you make sure you remember this?', 'this is worth keeping:', 'is it ok if you save this?', 'would be great if you could note this:',
];
const LEAD_IN = ['Hi! Busy day here.', 'ok long story short:', 'so anyway,', 'Quick thing before I forget.', 'Morning!', 'Right, unrelated but', 'Sorry, one more.',
  'Hey hey!', 'Random one.', 'Long week.', 'Kids are finally asleep.', 'Sorry, typing on my phone.', 'Back from the shops.', 'Hiya,', 'Ok so', 'um okay so', 'Hi there,'];
const LEAD_OUT = ['', '', ' Thanks!', ' cheers', ' Anyway, back to work.', ' 🙏', ' ty', ' Talk later.', ' Thank you so much.', ' x'];

function objectFor(rng: Rng, intent: Intent): string {
  const nouns = OBJ_NOUN[intent];
  return nouns && rng.chance(0.2) ? `${rng.pick(['this', 'that'])} ${rng.pick(nouns)}` : rng.pick(OBJ);
}

/** An adverb between politeness and verb, 15% of the time: "can you just save this", "dont ever forget". */
const adverb = (rng: Rng) => (rng.chance(0.15) ? rng.pick(['just ', 'also ', 'quickly ', 'ever ', 'please ', 'definitely ', 'actually ', 'maybe ']) : '');

/** One save-request wrapper with {X}/{x}: politeness × verb × object × destination × frame × position. */
export function composeSaveWrapper(rng: Rng, intent: Intent): string {
  const polite = rng.pick(POLITE);
  const cat = () => rng.pick(CATEGORY);
  const request = () => polite + adverb(rng) + rng.pick(VERB_DEST).replace('{o}', objectFor(rng, intent)).replace('{cat}', cat()) + rng.pick(TRAIL);
  const q = /^(?:can|could|would|pls can|hey can) /i.test(polite) ? '?' : '';
  let w: string;
  const frame = intent === 'UPDATE_INFO' && rng.chance(0.4) ? -1 : rng.int(13);
  switch (frame) {
    case -1:
      w = rng.pick(UPDATE);
      break;
    case 0:
      w = `${request()}${rng.pick([':', ' -', ' —', ',', ''])} {X}`;
      break;
    case 1:
      w = `{X}${rng.pick(['. ', ', ', ' - ', ' '])}${upperFirst(request())}${q}`;
      break;
    case 2:
      w = `${polite}${rng.pick(THAT)} {x}`;
      break;
    case 3:
      w = `${rng.pick(MARKERS)}${rng.pick([': ', ' - ', ', ', ' '])}{x}`;
      break;
    case 4:
      w = `{X} (${rng.pick(MARKERS)})`;
      break;
    case 5:
      w = `${adverb(rng)}${rng.pick(BARE)} {x}`.replace(/^ever (\S+)/, "don't ever $1");
      break;
    case 6:
      w = `{X}${rng.pick(['. ', ' - ', ', ', ' '])}${rng.pick(AFTER).replace('{cat}', cat())}${rng.pick(['', ' for me', ' pls', ' please', ' thanks'])}`;
      break;
    case 7:
      w = `${rng.pick(['would you mind', 'would u mind', 'do you mind', 'mind', "I'd appreciate you", "I'd appreciate it if you'd start"])} ${rng.pick(GERUND)} ${rng.pick(['that', 'this:', 'the following:'])} {x}${rng.chance(0.5) ? '?' : ''}`;
      break;
    case 8:
      w = `${rng.pick(PARTICIPLE_LEAD)}${rng.pick([': ', ' - ', ' that ', ', '])}{x}`;
      break;
    case 9:
      w = `${polite}${rng.pick(['bookmark', 'save', 'log', 'file', 'store', 'note'])} ${objectFor(rng, intent)}${rng.pick([': ', ' - ', ', '])}{x}`;
      break;
    case 10:
      w = rng.chance(0.5) ? `{X}${rng.pick([', ', '. ', ' - ', ' '])}${rng.pick(REASON)}` : `${upperFirst(rng.pick(REASON))}${rng.pick([': ', ' - ', ', '])}{x}`;
      break;
    case 11:
      w = rng.chance(0.6) ? `${rng.pick(PASSIVE)} {X}` : `{X}. ${upperFirst(rng.pick(PASSIVE).replace(/:$/, ''))}`;
      break;
    default:
      w = rng.chance(0.5)
        ? `I want you to know going forward that {x}`
        : `${rng.pick(['going forward', 'from now on', 'for the future', 'in future'])}, ${polite}${rng.pick(['keep in mind', 'remember', 'note', 'bear in mind'])} that {x}`;
  }
  // Position: a save request inside a longer message.
  if (rng.chance(0.25)) w = `${rng.pick(LEAD_IN)} ${w}${rng.pick(LEAD_OUT)}`;
  return w;
}

const SHORTHAND: Array<[RegExp, string[]]> = [
  [/\byou\b/gi, ['u', 'you', 'ya']],
  [/\byour\b/gi, ['ur', 'your']],
  [/\bplease\b/gi, ['pls', 'plz', 'please']],
  [/\bthanks\b/gi, ['thx', 'ta', 'thanks']],
  [/\bdon't\b/gi, ['dont', "don't"]],
  [/\bI'm\b/g, ['im', 'i’m', "I'm"]],
  [/\bgoing to\b/gi, ['gonna', 'going to']],
  [/\bbecause\b/gi, ['cos', 'bc', 'because']],
  [/\btomorrow\b/gi, ['tmrw', 'tomorrow']],
];

/** Chat shorthand: "u", "ur", "pls", "dont", "im". */
export function chatShorthand(text: string, rng: Rng): string {
  let t = text;
  for (const [re, alts] of SHORTHAND) t = t.replace(re, () => rng.pick(alts));
  return t;
}

/** Voice dictation: no punctuation or spelled-out punctuation, fillers, all lower case. */
export function dictate(text: string, rng: Rng): string {
  const spoken = rng.chance(0.3);
  let t = text
    .replace(/\s*:\s*/g, spoken ? ' colon ' : ' ')
    .replace(/[.!]+(\s+|$)/g, (_m, sp: string) => (spoken ? ' period' + (sp ? ' ' : '') : sp || ''))
    .replace(/\s*[,;]\s*/g, spoken && rng.chance(0.5) ? ' comma ' : ' ')
    .replace(/\s*[-–—]\s+/g, ' ')
    .replace(/[()"]/g, '')
    .replace(/\?/g, spoken ? ' question mark' : '')
    .toLowerCase();
  if (rng.chance(0.5)) t = `${rng.pick(['um', 'uh', 'okay so', 'so um', 'right', 'okay', 'hey'])} ${t}`;
  if (rng.chance(0.3)) t = t.replace(/ (\w+) /, (m) => (rng.chance(0.5) ? ` um${m}` : m));
  if (rng.chance(0.2)) t = `${t} ${rng.pick(['okay thanks', 'thanks', 'that is all', 'okay', 'cheers'])}`;
  return t.replace(/\s+/g, ' ').trim();
}

/** A short e-mail around the message: salutation, pleasantry, body, sign-off. */
export function emailFrame(body: string, rng: Rng, first: readonly string[]): string {
  const name = () => rng.pick(first);
  const hello = `${rng.pick(['Hi', 'Hello', 'Dear', 'Hey', 'Good morning', 'Hiya'])} ${rng.pick(['team', 'all', 'there', name(), name(), 'assistant'])},`;
  const pleasantry = rng.chance(0.5) ? `${rng.pick(['Hope all is well.', "Hope you're well.", 'Hope your week is going ok.', 'Quick one.', 'Just a short note.', 'Thanks for the help earlier.'])} ` : '';
  const sign = `${rng.pick(['Thanks', 'Best', 'Cheers', 'Regards', 'Thanks in advance', 'Kind regards', 'Many thanks', 'Best wishes'])},${rng.pick(['\n', ' '])}${name()}`;
  const sep = rng.pick(['\n\n', ' ', '\n']);
  return `${hello}${sep}${pleasantry}${upperFirst(body)}${sep}${sign}`;
}
