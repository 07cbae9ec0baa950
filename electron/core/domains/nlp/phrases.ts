/**
 * The phrase detector: explicit save requests, recall requests and importance markers, with
 * the negation and question handling the seed's plain regexes lack ("do you remember how
 * recursion works?", "I can never remember the rebase flags", "don't forget to include tests in
 * your answer"). Its cues are also features of the intent model, so the model can overrule a
 * rule the corpus shows to be wrong, and the rule can catch what the model has never seen.
 */

export interface PhraseSignals {
  /** A clause asks the assistant to keep something (not negated, not a question about memory). */
  saveRequest: boolean;
  recallRequest: boolean;
  importanceMarker: boolean;
  /** Importance strength: 0 none, 1 marker ("important"), 2 intensified ("really important", "critical"). */
  importanceLevel: 0 | 1 | 2;
  /** A save word was present but negated or part of a question/task ("no need to remember this"). */
  saveNegated: boolean;
  /** The request names what to keep ("remember that ...", "note: ...", "for future reference"): no model needed. */
  saveStrong: boolean;
  question: boolean;
  /** The phrases that matched, as written. */
  matched: string[];
  /** Stable cue names, fed to the intent featurizer. */
  cues: string[];
}

const LEAD = String.raw`(?:^|[,;:(\-–—]\s*|\b(?:and|but|also|so|oh|ok(?:ay)?|hey|hi|please|pls|plz|btw|fyi|just|now|alright|and also|one more thing)\b[,:]?\s+)`;
const DISCOURSE = String.raw`(?:(?:hey|hi|hello|ok(?:ay)?|so|also|and|oh|btw|pls|plz|please|kindly|just|quick(?:ly)?|now|alright|right|well|um+|uh+|actually|important|one more thing)\b[,:!]?\s+)*`;
const POLITE = String.raw`(?:(?:can|could|would|will)\s+you\s+(?:please\s+|pls\s+|kindly\s+|also\s+|just\s+)*|i\s+(?:want|need|would\s+like|'d\s+like|’d\s+like)\s+you\s+to\s+(?:please\s+)?|you\s+(?:should|must|need\s+to|have\s+to)\s+|make\s+sure\s+(?:that\s+)?(?:you\s+)?|be\s+sure\s+to\s+|try\s+to\s+|i\s+want\s+this\s+|i'd\s+like\s+this\s+|(?:i'?d|i\s+would)\s+like\s+to\s+|i\s+want\s+to\s+|let'?s\s+)?`;

/** Save verbs whose object is the content itself ("remember that...", "note: ..."). */
const SAVE_VERB = String.raw`(?:remember|memori[sz]e|note(?:\s+down)?|make\s+(?:a\s+)?(?:mental\s+)?note(?:\s+of)?|take\s+(?:a\s+)?note(?:\s+of)?|jot\s+(?:this\s+|that\s+|it\s+)?down|write\s+(?:this|that|it)\s+down|keep\s+in\s+mind|bear\s+in\s+mind|don'?t\s+forget|don’t\s+forget|do\s+not\s+forget|never\s+forget|add\s+(?:this|that|it)\s+to\s+(?:your\s+|my\s+)?(?:memory|memories|notes|brain|vault)|commit\s+(?:this|that|it)\s+to\s+memory|update\s+(?:your|my|the)\s+(?:notes|memory|memories)(?!\s+(?:section|page|component|file|table|field|tab|app|feature|screen|view|module)\b)|file\s+(?:this|that|it)\s+(?:away|under)|(?:hang|hold)\s+on\s+to\s+(?:this|that|it)|put\s+(?:this|that|it)\s+on\s+(?:file|record)|keep\s+(?:this|that|it)\s+on\s+(?:file|record)|don'?t\s+let\s+me\s+forget|do\s+not\s+let\s+me\s+forget|make\s+sure\s+i\s+(?:don'?t|never)\s+forget|add\s+(?:this|that|it)\s+to\s+(?:the|my|your)\s+(?:file|records|list)|stash\s+(?:this|that)|keep\s+track\s+of\s+(?:this|that|the\s+fact)|keep\s+(?:a\s+)?(?:note|record)\s+of|lodge\s+(?:this|that)|(?:save|store|record|log|keep)\s+(?:this|that|it|the\s+fact|the\s+following)(?=\s*(?:[:,.!\-–—]|$|for\s+(?:later|future|next\s+time)|somewhere|please|pls|to\s+(?:your\s+|my\s+)?(?:memory|memories|notes)|in\s+(?:your\s+|my\s+)?(?:memory|memories|notes)|as\s+a\s+(?:memory|note))))`;

const SAVE_RE = new RegExp(`${LEAD}${DISCOURSE}${POLITE}(${SAVE_VERB})\\b(?![-'’])(.{0,400})`, 'iu');
/** Stand-alone markers that always mean "keep this". */
const SAVE_MARKER_RE =
  /\b(for (?:future|later) reference|for the record|note to self|memo to self|keep this in mind|add (?:this|that|it) to (?:your |my )?memory|put (?:this|that|it) in (?:your |my )?(?:memory|notes)|so (?:that )?(?:it'?s|you have it|you'?ve got it|it is) (?:saved|stored|on file|noted|written down)|for your records|for posterity|for safekeeping|(?:this|that) is worth remembering)\b/iu;

/**
 * A compositional grammar of "keep this" requests the fixed verbs above miss: verb × object ×
 * destination ("stick this in your notes", "hang onto this for me", "add to my profile that…",
 * "jot down that…", "keep this handy", "for your memory banks", "update what you have on me").
 * Every branch needs an object of keeping ("this", "that <clause>", ":") or a destination that
 * is the assistant's memory, so "jot down an outline" or "add error handling to my profile page"
 * do not match.
 */
const K_OBJ = String.raw`(?:this(?:\s+one|\s+bit|\s+info(?:rmation)?|\s+detail)?|that(?:\s+one)?|it|these|the\s+following|the\s+fact\s+that)`;
const K_MEM = String.raw`(?:(?:your|my|the|ur)\s+)?(?:notes?|memory|memories|memory\s+banks?|records?|files?|profile|brain|knowledge(?:\s+base)?|log|vault|database|list\s+of\s+things\s+about\s+me|info\s+on\s+me)`;
const K_DEST = String.raw`(?:(?:in|into|to|on|onto|under)\s+${K_MEM}|on\s+(?:file|record)|somewhere(?:\s+safe)?|(?:for|till|until)\s+(?:later|the\s+future|future\s+reference|next\s+time|safekeeping|reference|me|us|when\s+(?:i|we)\s+need\s+it)|handy|on\s+hand|safe|in\s+(?:the\s+back\s+of\s+)?(?:your\s+)?mind|to\s+what\s+you\s+know\s+(?:about|of)\s+me)`;
const K_THAT = String.raw`(?:that\s+(?=(?:i|i'm|i've|i'd|we|we're|we've|my|our|the|he|she|they|his|her|their|it's|there|[A-Z]\w*)\b)|:|\s*[-–—]\s)`;
const KEEP_RE = new RegExp(
  String.raw`(?:` +
    [
      String.raw`\b(?:hang|hold)\s+on(?:\s+|\s*)to\s+${K_OBJ}`,
      String.raw`\bhang\s+onto\s+${K_OBJ}`,
      String.raw`\b(?:keep|stick|put|pop|throw|stash|store|save|file|jot|write|log|add|drop|tuck|squirrel)\s+${K_OBJ}\s+(?:away\s+|down\s+)?${K_DEST}`,
      String.raw`\b(?:put|jot|write|note|set|log)\s+(?:it\s+|this\s+|that\s+)?down\s+(?:somewhere\s+|for\s+(?:me|later)\s+)?${K_THAT}`,
      String.raw`\b(?:add|put|stick|write|note)\s+(?:(?:it|this|that)\s+)?(?:down\s+)?(?:in|into|to|on)\s+${K_MEM}\s*${K_THAT}`,
      String.raw`\b(?:log|record|store|retain|save|keep|file)\s+(?:the\s+fact\s+)?${K_THAT}`,
      String.raw`\b(?:file|tuck|squirrel|put|stash|set)\s+(?:away|aside)\s+(?:somewhere\s+)?(?:for\s+(?:later|me)\s+)?${K_THAT}`,
      String.raw`\b(?:retain|memori[sz]e|internali[sz]e)\s+(?:this|that|the\s+following)\b`,
      String.raw`\b(?:kept|keeping|keeps)\s+(?:a\s+)?(?:record|note|track|log)\s+of\s+(?:this|that|the\s+fact|it)\b`,
      String.raw`\bkeep\s+(?:a\s+)?(?:record|note|track|log)\s+(?:of\s+(?:this|that|the\s+fact)|that\s)`,
      String.raw`\bmake\s+(?:a\s+)?(?:memo|record|mental\s+note|note\s+for\s+(?:later|the\s+future))\b`,
      String.raw`\bdon'?t\s+lose\s+(?:this|that|it)\b`,
      String.raw`\bmake\s+sure\s+you\s+(?:know|have|keep|remember|store|save|note)\b`,
      String.raw`\bi\s+(?:want|need|'d\s+like|would\s+like)\s+you\s+to\s+(?:know|keep\s+in\s+mind|be\s+aware)\b(?=.*\b(?:going\s+forward|from\s+now\s+on|in\s+future|in\s+the\s+future|for\s+(?:later|the\s+future|next\s+time))\b|\s+that\s)`,
      String.raw`\bupdate\s+(?:your|my|the)\s+(?:notes|memory|memories|records?|profile|file|info(?:rmation)?|knowledge)(?:\s+(?:on|about)\s+me)?\b(?!\s+(?:section|page|component|file|table|schema|field|api|endpoint|screen|view|model|class)\b)`,
      String.raw`\bupdate\s+what\s+you\s+(?:have|know|remember|keep)\s+(?:on|about)\s+me\b`,
      String.raw`\b(?:add|put)\s+(?:that|this|it)\s+to\s+what\s+you\s+know\b`,
      String.raw`\b(?:for\s+(?:your|the)\s+memory\s+banks?|worth\s+remembering|something\s+to\s+(?:file|remember|keep|note)|note\s+for\s+(?:later|the\s+future|future)|heads\s+up\s+for\s+later|for\s+(?:your|the)\s+files|for\s+your\s+(?:notes|memory)|so\s+you\s+(?:have|know)\s+(?:it|this|that)\s+(?:on\s+hand\s+)?(?:later|for\s+later|going\s+forward|in\s+future|for\s+next\s+time)|so\s+you\s+have\s+it\s+on\s+hand|remember\s+for\s+(?:next\s+time|later|the\s+future)|for\s+next\s+time\s*:|going\s+forward,?\s+(?:please\s+)?(?:keep|remember|note|bear))\b`,
    ].join('|') +
    String.raw`)`,
  'iu',
);

const SELF_NOTE_RE =
  /\b(?:i|i'll|i'd|we|we'll)\s+(?:will\s+|should\s+|must\s+|need\s+to\s+|have\s+to\s+|gotta\s+|ought\s+to\s+|might\s+|can\s+|could\s+)?(?:probably\s+|definitely\s+|totally\s+|really\s+)?(?:remember|make\s+(?:a\s+)?(?:mental\s+)?note|note|write\s+(?:this|that|it)\s+down|jot\s+(?:this|that|it)\s+down|save|keep\s+(?:this|that|it)\s+in\s+mind|memori[sz]e)\b/iu;

/** "remember to <verb> ... in your answer" is an instruction for this reply, not a memory. */
const TASK_SCOPE_RE = /\b(?:in|for|with|to)\s+(?:your|the|this|that)\s+(?:answer|reply|response|code|output|solution|example|snippet|pr|commit|function|script|test|tests|next message|summary)\b|\bwhen you (?:answer|reply|respond|write)\b|\b(?:this|next) time\b|\bgoing forward in (?:the|this) (?:code|chat)\b/iu;
const NEGATION_RE =
  /\b(?:no need to|don'?t|don’t|do not|never|not|you don'?t have to|needn'?t|no point in|not worth|stop|can'?t|cannot|couldn'?t|won'?t|i never|i can never|i always)\s+(?:\w+\s+){0,2}?(?:remember(?:ing)?|save|saving|store|storing|record|recording|note|noting|memori[sz]e|keep(?:ing)? (?:this|that|it))\b/iu;
const FORGET_RE = /(?<!\b(?:don'?t|do not|never|not)\s)\b(?:forget (?:it|that|about (?:it|that|this))|never ?mind|scratch that|ignore (?:that|this))\b/iu;

const RECALL_RE =
  /\b(what did (?:i|we) (?:say|tell you|decide|discuss|mention|pick|choose|settle on|go with|agree)|do you (?:still )?(?:remember|recall|know) (?:what|when|where|who|which|how|if|whether|my|our|the)|did i (?:ever )?(?:tell|mention|say)|have i (?:ever )?(?:told|mentioned|said)|remind me (?:what|when|where|who|which|how|of|about|again)|what(?:'s| is| was) (?:my|our)\b|what was (?:the|that)\b|(?:can|could) you (?:remind|recall)|recall (?:what|my|our|the|when)|last time (?:i|we) (?:talked|spoke|discussed|met)|you (?:should|would) (?:know|remember)|(?:search|look up|check) (?:your |my )?(?:memory|memories|notes))/iu;

const IMPORTANCE_RE = /\b(important|critical|crucial|essential|vital|priority|must[- ]have|key point|top priority|matters a lot|big deal|non-?negotiable)\b/iu;
const INTENSIFIED_RE = /\b(?:(?:very|really|extremely|super|incredibly|absolutely|so)\s+(?:important|critical|crucial|essential)|critical|crucial|vital|top priority|non-?negotiable|above all|most important)\b/iu;
const IMPORTANCE_NEGATED_RE = /\b(?:not|isn'?t|isn’t|wasn'?t|no|nothing)\s+(?:(?:that|very|really|too|super|a|particularly)\s+)*(?:important|critical|crucial|essential|vital|big deal|priority)\b/iu;

const QUESTION_START_RE = /^(?:\W*)(?:(?:hey|hi|ok(?:ay)?|so|and|but|also|btw|quick question|um+)[,:]?\s+)*(?:who|what|when|where|why|how|which|whose|is|are|was|were|do|does|did|can|could|would|will|should|shall|have|has|may|might|isn'?t|aren'?t|doesn'?t)\b/iu;

/** The seed's Phase 1 regexes verbatim: the baseline the eval reports beside ours. */
const SEED_SAVE = [
  /\b(remember|don't forget|keep in mind|make a note)\b/i,
  /\b(never forget|write this down|document this)\b/i,
  /\b(save this|store this|record this)\b/i,
];
const SEED_RECALL = [/\bwhat did (i|we) (say|tell you|discuss)\b/i, /\bdo you remember\b/i, /\brecall\b/i];
const SEED_IMPORTANCE = [/\b(important|critical|crucial|essential)\b/i, /\b(very|really|extremely)\s+(important|critical)\b/i];

export function seedPhraseDetector(text: string): { saveRequest: boolean; recallRequest: boolean; importanceMarker: boolean } {
  return {
    saveRequest: SEED_SAVE.some((r) => r.test(text)),
    recallRequest: SEED_RECALL.some((r) => r.test(text)),
    importanceMarker: SEED_IMPORTANCE.some((r) => r.test(text)),
  };
}

/** Sentence-ish clauses; a save request and a question can share one message. */
function clauses(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((c) => c.trim())
    .filter(Boolean);
}

export function detectPhrases(text: string): PhraseSignals {
  const norm = text.replace(/[’‘]/g, "'");
  const matched: string[] = [];
  const cues: string[] = [];
  let saveRequest = false;
  let saveNegated = false;
  let saveStrong = false;
  let anyQuestion = false;
  for (const clause of clauses(norm)) {
    const isQuestion = /\?\s*$/.test(clause) || QUESTION_START_RE.test(clause);
    if (isQuestion) anyQuestion = true;
    const m = SAVE_RE.exec(clause);
    const marker = SAVE_MARKER_RE.exec(clause) ?? KEEP_RE.exec(clause);
    if (!m && !marker) continue;
    const verb = (m?.[1] ?? marker?.[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const rest = m?.[2] ?? '';
    // "I should write this down somewhere": the user keeps it themselves.
    const selfKept = !m && marker !== null && /\b(?:i|i'll|i'd|i'm|we|we'll|we'd|we're)\s+(?:(?:should|will|shall|must|need\s+to|have\s+to|gotta|might|can|could|probably|definitely|really|better|going\s+to|gonna|just)\s+){0,3}$/i.test(clause.slice(0, marker.index));
    const negated = selfKept || NEGATION_RE.test(clause) && !/\b(?:don'?t|do not|never) forget\b/i.test(clause);
    const politeRe = /\b(?:can|could|would|will) you\b|\bwould you (?:mind|be so kind)\b/i;
    const polite = m ? politeRe.test(clause.slice(0, clause.toLowerCase().indexOf(verb) + 1)) : marker ? politeRe.test(clause.slice(0, marker.index + 1)) : false;
    // "do you remember ...?" asks about memory; "can you remember that ...?" asks to keep something.
    const memoryQuestion = /\b(?:do|did|does) you (?:still )?(?:remember|recall)\b/i.test(clause) || /\bremember (?:how|what|when|where|who|which|why|if|whether)\b/i.test(clause) && isQuestion;
    // "remember to add tests", "don't forget to include X in your answer": instructions, not memories.
    // "jot down an outline for a blog post" asks for a new text, not to keep one.
    const artifact = /^(?:jot|write|note)\b/i.test(verb) && /^\s*(?:a|an|some|me\s+(?:a|an|some))\s+(?!note\b)/i.test(rest);
    const taskScoped = artifact || /^(?:remember|don'?t forget|do not forget|never forget|keep in mind|bear in mind)/i.test(verb) && (/^\s*to\s/i.test(rest) || (TASK_SCOPE_RE.test(rest) && !/^\s*for\s+(?:next\s+time|later|the\s+future)\s*[:,\-–—]/i.test(rest)));
    // "remember when we went to Crete" reminisces; it asks to keep nothing.
    // ... and "Remember me on this computer" names a checkbox.
    const reminiscing = /^remember$/i.test(verb) && /^\s*(?:when\s+(?:we|i|you|they|he|she|it|my|our)\b|the\s+time\b|that\s+time\b|back\s+when\b|how\s+(?:we|i)\b|me\b(?!\s+(?:that|this)\b))/i.test(rest);
    // A marker inside a question keeps nothing ("for the record, what year did the wall fall?")
    // unless the question is a polite request ("could you add to your notes that…?").
    const questionAboutThis = isQuestion && !polite && (!marker || QUESTION_START_RE.test(clause.slice(marker.index + marker[0].length).replace(/^[\s,:;\-–—]+/, '')) || /^\s*(?:for the record|for future reference)\b/i.test(marker[0]) && /\?\s*$/.test(clause));
    if (negated) {
      saveNegated = true;
      cues.push('save_negated');
    } else if (memoryQuestion) {
      saveNegated = true;
      cues.push('memory_question');
    } else if (reminiscing) {
      saveNegated = true;
      cues.push('reminiscing');
    } else if (taskScoped) {
      saveNegated = true;
      cues.push('save_task_scoped');
    } else if (questionAboutThis) {
      saveNegated = true;
      cues.push('save_word_in_question');
    } else {
      saveRequest = true;
      if (marker || /^\s*(?:that\b|this\b|[:\-–—,])/i.test(rest) || /^(?:note\s+down|make|take|jot|write|add|commit|file|save|store|record|log|put|hang|hold|stash|lodge|keep\s+(?:this|that|it|a)|don'?t\s+let|do\s+not\s+let|make\s+sure\s+i)/i.test(verb)) saveStrong = true;
      matched.push((m?.[1] ?? marker?.[1] ?? '').trim());
      cues.push(polite ? 'save_polite' : 'save_imperative');
      cues.push(`save_verb_${verb.split(' ')[0]}`);
    }
  }
  // "Note that the array can be empty. What should it return?" sets up a question, it keeps nothing.
  if (saveRequest && anyQuestion && matched.every((v) => /^(?:note|please note)$/i.test(v))) {
    saveRequest = false;
    saveStrong = false;
    saveNegated = true;
    cues.push('note_before_question');
  }
  if (!saveRequest && /\b(?:do|did|does) you (?:still )?(?:remember|recall)\b/i.test(norm)) {
    saveNegated = true;
    cues.push('memory_question');
  }
  if (!saveRequest && !saveNegated && NEGATION_RE.test(norm)) {
    saveNegated = true;
    cues.push('save_negated');
  }
  // "I'll remember that", "I should write this down": the user keeps it, the assistant is not asked to.
  if (!saveRequest && SELF_NOTE_RE.test(norm)) {
    saveNegated = true;
    cues.push('self_note');
  }
    if (FORGET_RE.test(norm)) cues.push('forget_it');

  const recall = RECALL_RE.exec(norm);
  const recallRequest = recall !== null && !saveRequest;
  if (recall) {
    matched.push(recall[1] ?? '');
    cues.push('recall');
  }
  const importanceNegated = IMPORTANCE_NEGATED_RE.test(norm);
  const imp = importanceNegated ? null : IMPORTANCE_RE.exec(norm);
  const importanceLevel: 0 | 1 | 2 = imp ? (INTENSIFIED_RE.test(norm) ? 2 : 1) : 0;
  if (imp) {
    matched.push(imp[1] ?? '');
    cues.push(`importance_${importanceLevel}`);
  }
  if (importanceNegated) cues.push('importance_negated');
  if (anyQuestion) cues.push('question');
  if (saveRequest) cues.push(saveStrong ? 'save_strong' : 'save_weak');
  return { saveRequest, recallRequest, importanceMarker: importanceLevel > 0, importanceLevel, saveNegated, saveStrong, question: anyQuestion, matched, cues };
}
