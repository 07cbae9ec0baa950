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
const SAVE_VERB = String.raw`(?:remember|memori[sz]e|note(?:\s+down)?|make\s+(?:a\s+)?(?:mental\s+)?note(?:\s+of)?|take\s+(?:a\s+)?note(?:\s+of)?|jot\s+(?:this\s+|that\s+|it\s+)?down|write\s+(?:this|that|it)\s+down|keep\s+in\s+mind|bear\s+in\s+mind|don'?t\s+(?:ever\s+)?forget|don’t\s+forget|do\s+not\s+(?:ever\s+)?forget|never\s+(?:ever\s+)?forget|add\s+(?:this|that|it)\s+to\s+(?:your\s+|my\s+)?(?:memory|memories|notes|brain|vault)|commit\s+(?:this|that|it)\s+to\s+memory|update\s+(?:your|my|the)\s+(?:notes|memory|memories)(?!\s+(?:section|page|component|file|table|field|tab|app|feature|screen|view|module)\b)|file\s+(?:this|that|it)\s+(?:away|under)|(?:hang|hold)\s+on\s+to\s+(?:this|that|it)|put\s+(?:this|that|it)\s+on\s+(?:file|record)|keep\s+(?:this|that|it)\s+on\s+(?:file|record)|don'?t\s+let\s+me\s+forget|do\s+not\s+let\s+me\s+forget|make\s+sure\s+i\s+(?:don'?t|never)\s+forget|add\s+(?:this|that|it)\s+to\s+(?:the|my|your)\s+(?:file|records|list)|stash\s+(?:this|that)|keep\s+track\s+of\s+(?:this|that|the\s+fact)|keep\s+(?:a\s+)?(?:note|record)\s+of|lodge\s+(?:this|that)|(?:save|store|record|log|keep)\s+(?:this|that|it|the\s+fact|the\s+following)(?=\s*(?:[:,.!\-–—]|$|for\s+(?:later|future|next\s+time)|somewhere|please|pls|to\s+(?:your\s+|my\s+)?(?:memory|memories|notes)|in\s+(?:your\s+|my\s+)?(?:memory|memories|notes)|as\s+a\s+(?:memory|note))))`;

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
const K_NOUN = String.raw`(?:one|bit|info(?:rmation)?|details?|fact|preference|decision|number|date|address|code|reference|update|change|correction|note|too)`;
const K_OBJ = String.raw`(?:(?:this|that)(?:\s+${K_NOUN})?|it|these|the\s+following|the\s+fact\s+that)`;
/**
 * What the assistant keeps, as a noun phrase: an optional kind ("decision log", "preferences file",
 * "long-term memory") before a memory noun, never followed by a word that makes it a part of an app
 * ("the notes section", "my profile page").
 */
const K_KIND = String.raw`(?:decisions?|preferences?|prefs?|facts?|personal|family|health|travel|long[- ]term|permanent|running|master|saved)`;
/** A topic before a personal record ("my garden log", "my schedule notes"), not a software artifact ("release notes"). */
const K_TOPIC = String.raw`(?!(?:release|patch|speaker|lecture|change|commit|git|server|error|build|audit|access|debug|console|system|app|api|test|deploy|crash)\s)[\w-]{3,20}`;
const K_MEM = String.raw`(?:(?:your|my|ur|our)\s+${K_TOPIC}\s+(?:notes|log|journal|diary|records?)\b|(?:(?:your|my|the|ur|our)\s+)?(?:${K_KIND}\s+(?:list|sheet|doc|journal)|(?:${K_KIND}\s+)?(?:notes?|memory|memories|memory\s+banks?|records?|files?|profile|brain|knowledge(?:\s+base)?|log|vault|database|preferences|prefs|settings\s+(?:about|for)\s+me|list\s+of\s+things\s+about\s+me|info\s+on\s+me)))(?!\s+(?:section|page|component|screen|view|tab|table|field|panel|menu|api|endpoint|schema|module|class|feature|button|form|template)\b)`;
const K_DEST = String.raw`(?:(?:in|into|to|on|onto|under)\s+${K_MEM}|on\s+(?:file|record)|somewhere(?:\s+safe)?|(?:for|till|until)\s+(?:later|the\s+future|future\s+reference|next\s+time|safekeeping|reference|me|us|when\s+(?:i|we)\s+need\s+it)|handy|on\s+hand|safe|in\s+(?:your\s+)?back\s+pocket|on\s+your\s+radar|in\s+your\s+head|in\s+(?:the\s+back\s+of\s+)?(?:your\s+)?mind|to\s+what\s+you\s+know\s+(?:about|of)\s+me)`;
const K_THAT = String.raw`(?:that\s+(?=(?:i|i'm|i've|i'd|we|we're|we've|my|our|the|he|she|they|his|her|their|it's|there|[A-Z]\w*)\b)|:|\s*[-–—]\s)`;
const CORRECT_KEEP = String.raw`\b(?:keep|get|have|remember|note|store|save|put)\s+(?:it|this|that|(?:her|his|my|our|their|the)\s+[\w-]+)\s+(?:right|straight|correct|updated|up\s+to\s+date)\b(?:\s+(?:in|on)\s+${K_MEM}|\s+this\s+time|\s+(?:from\s+now\s+on|going\s+forward))`;
const CORRECT_KEEP_RE = new RegExp(CORRECT_KEEP, 'iu');
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
      // Verbs the fixed list lacks: "bookmark this", "keep hold of this", "log this decision", "save this preference".
      String.raw`\b(?:bookmark|pin|star|flag)\s+${K_OBJ}(?:\s+for\s+(?:me|later|the\s+future|next\s+time))?\s*(?:[:,.!\-–—]|$|for\b|please\b|pls\b|so\b)`,
      String.raw`\bkeep\s+(?:a\s+)?hold\s+of\s+${K_OBJ}`,
      String.raw`\bcommit\s+to\s+memory\b`,
      String.raw`\bput\s+a\s+pin\s+in\s+(?:this|that|it)\b`,
      String.raw`\bkeep\s+on\s+(?:file|record)\s*(?::|\s[\-–—])`,
      String.raw`\bso\s+(?:that\s+)?(?:you|u)\s+(?:don'?t|do\s+not|won'?t)\s+(?:have|need)\s+to\s+ask\s+(?:me\s+)?again\b`,
      String.raw`\b(?:it'?d|it\s+would|would\s+it)\s+be\s+(?:really\s+|so\s+|very\s+|super\s+)?(?:useful|good|great|helpful|handy|nice|ideal)\s+if\s+you\s+(?:remembered|noted|saved|kept|stored|logged|recorded|could\s+(?:remember|note|save|keep|store|log))\b`,
      String.raw`(?:^|[.!?]\s+)(?:(?:ok(?:ay)?|so|just|and)[,]?\s+)?(?:adding|putting|saving|storing|filing|logging)\s+(?:(?:this|that|it)\s+)?(?:to|in|into|under)\s+${K_MEM}\s*(?:[:,]|\s[\-–—])`,
      String.raw`\bkeep\s+in\s+(?:your\s+)?(?:memory|head|notes)\b`,
      String.raw`\b(?:new\s+)?(?:fact|info|detail|preference|decision|thing|something|update|one|memory)\s+(?:for\s+(?:your\s+(?:notes|memory|memory\s+banks?|files|records)|you\s+to\s+(?:keep|remember|note|save|store|file)|you)\s*(?:[.:]|\s[\-–—])|to\s+(?:save|remember|note|keep|store|log|file)\s*(?::|\s[\-–—]))`,
      String.raw`\b(?:save|store|log|record|note|remember|keep)\s+(?:the|my|our|this)\s+(?:decision|preference|choice|plan)\s+(?:to|that|about)\b`,
      String.raw`\bso\s+(?:that\s+)?you(?:'ve|\s+have)\s+got\s+(?:it|this|that)\b`,
      String.raw`\bso\s+(?:that\s+)?you\s+(?:have|know|get)\s+(?:it|this|that)\s+(?:right|straight|correct)\b`,
      String.raw`\bfile\s+(?:(?:this|that|it)\s+)?under\s+[\w' ]{1,24}?\s*:`,
      String.raw`(?:^|[.!?]\s+|,\s*)mental\s+note\b`,
      String.raw`\bmake\s+sure\s+you(?:'ve|\s+have)\s+got\s+(?:it|this|that)\b`,
      String.raw`(?:^|[.!?]\s+)(?:(?:so|and|ok|okay|also)\s+)?for\s+(?:(?:the\s+)?future|later|next\s+time|safekeeping|reference)\s*(?:[,:]|\s[\-–—])`,
      // "for future chats, …", "in future conversations: …": a frame that says the rest is meant to outlast this chat.
      String.raw`(?:^|[.!?]\s+)(?:(?:so|and|ok|okay|also|btw|fyi)[,]?\s+)?(?:for|in)\s+(?:all\s+)?(?:the\s+)?(?:future|later|upcoming)\s+(?:chats?|conversations?|sessions?|threads?|questions?|requests?|answers?|replies|messages)\s*(?:[,:]|\s[\-–—])`,
      // A correction aimed at what is already kept: "update my saved shoe size to 45", "change the stored address".
      String.raw`\b(?:update|change|correct|fix|amend|overwrite)\s+(?:my|your|the|our)\s+(?:saved|stored|recorded|noted|remembered|kept)\s+\w+`,
      String.raw`\b(?:i\s+)?(?:need|want|'d\s+like)\s+(?:you|u)\s+to\s+(?:hang\s+on\s*to|hold\s+on\s*to|keep\s+hold\s+of|have\s+(?:this|that|it)\s+(?:on\s+hand|on\s+file|handy|for\s+later))\b`,
      // Why it is sent, or a passive request: "so you have it for later", "can this go in your notes?", "I want this on record".
      String.raw`\bso\s+(?:that\s+)?you\s+(?:can\s+)?(?:have\s+(?:it|this|that)|know|remember(?:\s+(?:it|this|that))?)\s+(?:for\s+(?:later|next\s+time|the\s+future|future\s+reference)|later|next\s+time|going\s+forward)\b`,
      String.raw`\bso\s+(?:that\s+)?you\s+(?:remember|don'?t\s+forget)\s+(?:it|this|that)\b`,
      String.raw`\bcan\s+(?:this|that|it)\s+go\s+(?:in|into|on)\s+${K_MEM}`,
      String.raw`\bi\s+(?:want|need|'d\s+like)\s+(?:this|that|it)\s+(?:saved|noted|remembered|stored|logged|recorded|on\s+(?:record|file)|in\s+${K_MEM})`,
      String.raw`\b(?:please\s+)?have\s+(?:this|that|it)\s+(?:noted|saved|on\s+file|on\s+record)\b`,
      String.raw`\b(?:i'?d|i\s+would)\s+appreciate\s+(?:it\s+if\s+you(?:'d|\s+would|\s+could)?\s+(?:remember|note|save|store|keep|log|record|file|jot)|you\s+(?:noting|remembering|saving|storing|keeping|logging|recording|filing))\b`,
      String.raw`\b(?:save|store|keep|file|log|note|stash)\s+(?:(?:this|it|that)\s+)?(?:away\s+)?for\s+(?:later|the\s+future|future\s+ref(?:erence)?|next\s+time|safekeeping)\s*(?:[:,]|\s[\-–—])`,
      String.raw`\b(?:please|pls|plz|kindly)\s+(?:save|store|note|log|remember|file|record|bookmark)\s*(?::|\s[\-–—])`,
      // A bare save verb heading the message, as a label: "save: …", "nb save: …", "store for later - …".
      String.raw`(?:^|[.!?]\s+)(?:(?:nb|ps|fyi|ok(?:ay)?|so|and|also|btw|quick(?:\s+one)?)[,:]?\s+)?(?:save|store|log|file|record|bookmark|remember|memori[sz]e)(?:\s+for\s+(?:later|the\s+future|future\s+ref(?:erence)?|next\s+time|safekeeping))?\s*(?::|\s[\-–—])`,
      String.raw`\b(?:for\s+(?:future|later)\s+ref\b|nb\s+for\s+(?:later|the\s+future)\b|for\s+the\s+future\s*:|note\s+for\s+future\b)`,
      String.raw`\b(?:would|do|will)\s+(?:you|u)\s+mind\s+(?:noting|remembering|saving|storing|logging|recording|memori[sz]ing|filing|bookmarking|keeping\s+(?:a\s+)?(?:note|record|track)|making\s+(?:a\s+)?note|jotting|writing\s+(?:this|that|it)\s+down|adding\s+(?:this|that|it)\s+to)\b`,
      String.raw`\b(?:save|store|log|record|note|keep|file|remember)\s+(?:this|that)\s+${K_NOUN}\b\s*(?:[:,\-–—]|$|for\b|please\b|pls\b|too\b|as\s+well\b|instead\b)`,
      String.raw`\b(?:save|store|log|record|note|keep|remember|file)\s+(?:this|that|it)\s+(?:instead|too|as\s+well|as\s+the\s+new\s+one)\b`,
      // Participles opening a message: "noting for later: …", "saving this for you - …".
      String.raw`(?:^|[.!?]\s+)(?:(?:ok(?:ay)?|so|just|and)[,]?\s+)?(?:noting|logging|filing|recording|saving|storing|bookmarking|jotting)\s+(?:(?:this|that|it)\s+)?(?:down\s+)?(?:for\s+(?:later|the\s+future|future\s+reference|you|next\s+time)\s*)?(?:${K_THAT}|[:,]\s*)`,
      // "keep a note: …", "keep a note i prefer …", "make note my …"
      String.raw`\b(?:keep|make|take)\s+(?:a\s+)?(?:mental\s+)?note\s*(?:[:,?]|$|\s[\-–—]|(?<=\s)(?=(?:i|i'm|i've|i'd|we|we're|my|our)\b))`,
      String.raw`\b(?:worth|good\s+to|useful\s+to|handy\s+to)\s+(?:keeping|keep|bearing|bear|having|storing|saving|putting)\s+(?:(?:it|this|that)\s+)?in\s+(?:(?:your|the)\s+)?(?:mind|memory|head|notes|records)\b`,
      // "make sure that sticks", "make sure it stays with you": keeping stated as an outcome.
      String.raw`\bmake\s+sure\s+(?:that|it|this)\s+(?:sticks|stays\s+with\s+you|stays\s+in\s+(?:your\s+)?(?:memory|notes|head))\b`,
      // A request to hold something correctly: "keep her age right in your notes", "remember it right this time", "get that straight".
      String.raw`${CORRECT_KEEP}`,
      // A save request closing the message: "my lock code is 0815 can u memorise it".
      String.raw`\b(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+|just\s+|also\s+)*(?:(?:remember|memori[sz]e|note|log|write\s+down|jot\s+down)\s+(?:it|this|that)|(?:save|store|keep|record|file)\s+(?:this|that))(?:\s+(?:down|for\s+me|for\s+later|please|pls|thanks|thx))*\s*[?.!]*\s*$`,
      String.raw`\b(?:i\s+)?(?:want|need|'d\s+like)\s+(?:you|u)\s+to\s+(?:remember|note|memori[sz]e|save|store|keep\s+in\s+mind|log|record|keep\s+(?:a\s+)?(?:note|record)\s+of)\b`,
      // Corrections aimed at the assistant's memory: "update what you've got on file", "update my details", "replace the old code in your notes with …".
      String.raw`\b(?:update|correct|fix|amend|change)\s+what\s+(?:you've|you\s+have|you'?ve\s+got|you\s+know|you\s+got)\s+(?:got\s+)?(?:on\s+(?:file|record|me)|about\s+me|in\s+your\s+notes|for\s+(?:my|me|our))`,
      String.raw`\bupdate\s+(?:my|your)\s+(?:${K_TOPIC}\s+(?:notes|log|records?)\b|details|info(?:rmation)?|contact\s+details|records?|entry|file|notes)\b(?!\s+(?:section|page|component|file|table|schema|field|api|endpoint|screen|view|model|class)\b)`,
      String.raw`\b(?:replace|change|swap|correct|fix|amend|overwrite)\s+(?:the\s+old\s+|what\s+i\s+said\s+|what\s+you\s+have\s+)?[\w\s']{0,30}?\b(?:in|on)\s+(?:(?:your|my|the)\s+)?(?:notes|records|memory|file|profile)\b`,
      String.raw`\b(?:fix|correct|amend|update)\s+(?:your|my)\s+(?:notes|records|memory|file)\s*[:,\-–—]`,
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

/**
 * An imperative keep-verb with a deictic object and a boundary after it: "squirrel this away?",
 * "write this one down:", "record the decision:", "register this somewhere:". Anchored like
 * SAVE_RE (start, punctuation or a discourse word, then politeness), so "did you save it?" or
 * "should I keep this?" do not match, and the boundary keeps "save this file" out.
 */
const C_VERB = String.raw`(?:mem|remember|memori[sz]e|note\s+down|jot(?:\s+down)?|write|log|record|register|save|store|keep|file|stash|squirrel|tuck|bookmark|pin|archive|retain|(?:hang|hold)\s+on\s*to|(?:hang|hold)\s+onto|keep\s+hold\s+of)`;
const C_OBJ = String.raw`(?:(?:this|that)(?:\s+(?:one|bit|info|information|detail|details|fact|decision|preference|number|date|change|update|code))?|it|these|the\s+following|(?:the|my|our)\s+(?:decision|fact|details?|preference|new\s+(?:number|address|details?)|change|update|following))`;
const C_PART = String.raw`(?:\s+(?:away|down|safe|somewhere(?:\s+safe)?|for\s+(?:me|us|later|the\s+future|next\s+time|future\s+reference|safekeeping)|to\s+memory|in\s+(?:your\s+|my\s+)?(?:memory|notes|mind|head)|on\s+(?:file|record)))*`;
const COMPOSED_RE = new RegExp(`${LEAD}${DISCOURSE}${POLITE}((?:also\\s+|just\\s+)?${C_VERB}\\s+${C_OBJ}${C_PART})\\s*(?:[:\\-–—?!]|$|\\.\\s|,(?=\\s*(?:i|i'm|i've|my|our|we|we're|the|he|she|they|it's|his|her)\\b)|\\s+(?:please|pls|plz|for\\s+me|thanks|thx|ta)\\b)`, 'iu');

/**
 * A save imperative in another language a person mixes into English ("merke dir: …", "ricorda:
 * …", "añade a mis notas …", "bewaar dit even", "je veux que tu retiennes ça", "zapamiętaj"): the
 * common European memory verbs, at the start of a clause, after an optional "please", in a clause
 * that is not a question ("¿recuerdas…?", "lembra quando…?" ask, they keep nothing).
 */
const FOREIGN_SAVE_RE = new RegExp(
  String.raw`(?:^|[.!?;:,]\s*|\s[\-–—]\s*)(?:(?:bitte|por\s+favor|per\s+favore|s'il\s+(?:te|vous)\s+pla[iî]t|svp|alsjeblieft|alstublieft|proszę|prosze|pls|please)[,]?\s+)?` +
    String.raw`((?:merk(?:e)?\s+dir|merken\s+sie\s+sich|notier(?:e)?\s+(?:dir|das|dies)|speicher(?:e)?\s+(?:das|dies)|onthoud|bewaar\s+(?:dit|dat|het)|noteer|retiens|retenez|souviens[- ]toi|souvenez[- ]vous|note[zs]?\s+(?:ça|cela|bien|que)|garde[zs]?\s+(?:ça|cela|le|la)\s+en\s+(?:mémoire|tête)|je\s+veux\s+que\s+tu\s+retiennes|recuerda|recuérdalo|acu[eé]rdate|apunta|anota|guarda\s+(?:esto|eso|isso|isto|questo)|añade(?:lo)?\s+a\s+mis\s+notas|ricorda(?:ti|lo)?|memorizza|segna(?:ti|lo)?|annota|lembr(?:a|e-se|a-te)|grava\s+isso|zapami[eę]taj|zapisz|wpisz\s+to))\b(?![^?]*\?)`,
  'iu',
);

/** A request to work on a text given in the message ("pls proofread", "can you tidy this up"). */
const TEXT_TASK_RE = /\b(?:please|pls|plz|kindly|can\s+you|could\s+you|would\s+you)\s+(?:(?:just|quickly)\s+)?(?:proofread|review|check|fix|edit|rewrite|rephrase|reword|translate|summari[sz]e|improve|shorten|polish|correct|tidy|format)\b/iu;

/** "for future chats", "in future conversations", "for all future sessions": the message is meant to outlast this chat. */
const FUTURE_FRAME_RE = /\b(?:for|in)\s+(?:all\s+)?(?:the\s+)?(?:future|later|upcoming|next)\s+(?:chats?|conversations?|sessions?|threads?|questions?|requests?|answers?|replies|messages|tasks?|projects?)\b|\b(?:going\s+forward|from\s+now\s+on)\b/iu;

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

/** Optimal-string-alignment distance (three rolling rows): enough to tell a typo from another word. */
const OSA_ROWS: [Int32Array, Int32Array, Int32Array] = [new Int32Array(16), new Int32Array(16), new Int32Array(16)];
/** A typed-array cell; past the row (a word longer than 15 letters) NaN, which no distance test passes, as before. */
const cell = (row: Int32Array, j: number): number => row[j] ?? NaN;
function osa(a: string, b: string): number {
  let [prev2, prev, cur] = OSA_ROWS;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(cell(prev, j) + 1, cell(cur, j - 1) + 1, cell(prev, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, cell(prev2, j - 2) + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return cell(prev, b.length);
}

/** Save verbs people mistype ("remmeber", "rember", "bookmrk"); "rem…" words may be two edits off. */
const TYPO_TARGETS = ['remember', 'bookmark', 'memorise', 'memorize', 'forget', 'please'];
const REAL_WORDS = new Set(['forged', 'forger', 'forgets', 'remembers', 'remembered', 'forgot', 'target', 'forest', 'rememberer', 'morrise', 'memories', 'pleased', 'pleads', 'pleats', 'plead', 'pleat', 'pulse', 'lease', 'places', 'plates', 'plane']);
const TYPO_CANDIDATE_RE = /\b[rbmfpRBMFP]\p{L}{4,10}\b/gu;

/** Consonant skeleton: vowels dropped, repeated letters merged ("remember" → "rmbr"). */
const skeleton = (w: string): string => w.replace(/[aeiouy]/g, '').replace(/(.)\1+/g, '$1');
const isSubsequence = (w: string, t: string): boolean => {
  let j = 0;
  for (const ch of t) if (ch === w[j]) j++;
  return j === w.length;
};
/** Save verbs people abbreviate by dropping vowels ("rmbr", "rembr", "bkmrk", "frgt"). */
const ABBREV_TARGETS = ['remember', 'bookmark', 'forget'];
const ABBREV_CANDIDATE_RE = /\b[rbfRBF][a-zA-Z]{2,7}\b/g;

/**
 * A word is read as a save verb when it is that verb written without some of its vowels: its
 * letters appear in order in the verb and it keeps every consonant of the verb's skeleton.
 */
export function expandSaveAbbreviations(text: string): string {
  return text.replace(ABBREV_CANDIDATE_RE, (w) => {
    const lw = w.toLowerCase();
    for (const t of ABBREV_TARGETS) {
      if (lw !== t && lw[0] === t[0] && lw.length < t.length && isSubsequence(lw, t) && skeleton(lw) === skeleton(t)) return t;
    }
    return w;
  });
}

export function fixSaveTypos(text: string): string {
  return expandSaveAbbreviations(text).replace(TYPO_CANDIDATE_RE, (w) => {
    const lw = w.toLowerCase();
    if (TYPO_TARGETS.includes(lw) || REAL_WORDS.has(lw)) return w;
    for (const t of TYPO_TARGETS) {
      if (lw[0] !== t[0]) continue;
      const cap = t === 'remember' && lw.startsWith('rem') ? 2 : 1;
      if (Math.abs(lw.length - t.length) <= cap && osa(lw, t) <= cap) return t;
    }
    return w;
  });
}

/** Chat shorthand the detector's grammar is written without: "u" → "you", "ur" → "your", "r" → "are", "im" → "i'm". */
const SHORTHAND: Record<string, string> = { n2s: 'note to self', '4get': 'forget', l8r: 'later', l8er: 'later', u: 'you', ur: 'your', r: 'are', im: "i'm", ive: "i've", ya: 'you', youre: "you're", ppl: 'people', abt: 'about', bc: 'because', cuz: 'because' };
const SHORTHAND_RE = new RegExp(`\\b(${Object.keys(SHORTHAND).join('|')})\\b(?![-'’.]\\w)`, 'giu');

export function expandChatShorthand(text: string): string {
  return text.replace(SHORTHAND_RE, (w) => {
    const full = SHORTHAND[w.toLowerCase()] ?? w;
    return w === w.toUpperCase() && w.length > 1 ? full.toUpperCase() : full;
  });
}

/**
 * analyze_message reads the detector twice for one message (intent features, then the
 * explicit-save decision), so the last answer is kept; it is frozen, so sharing it is safe.
 */
let last: { text: string; signals: PhraseSignals } | undefined;

export function detectPhrases(text: string): PhraseSignals {
  if (last?.text === text) return last.signals;
  const signals = detect(text);
  Object.freeze(signals.matched);
  Object.freeze(signals.cues);
  last = { text, signals: Object.freeze(signals) };
  return signals;
}

/**
 * v7: emoji closing a message are not words, so the clause before them ends the message
 * ("my gamertag is NightOwl_Kaz btw, keep that 🦉", "…, save it 🙏" end in "keep that" / "save it").
 */
const TRAILING_EMOJI_RE = /(?:\s|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f)+$/u;

function detect(text: string): PhraseSignals {
  // "please to remember…" (a learner's form) is "please remember…".
  const norm = expandChatShorthand(fixSaveTypos(text.replace(/[’‘]/g, "'")))
    .replace(/\b(please|pls|plz)\s+to\s+(?=(?:remember|note|save|keep|store|write|log|bear)\b)/giu, '$1 ')
    .replace(TRAILING_EMOJI_RE, '');
  const matched: string[] = [];
  const cues: string[] = [];
  let saveRequest = false;
  let saveNegated = false;
  let saveStrong = false;
  let anyQuestion = false;
  let politeRequest = false;
  for (const clause of clauses(norm)) {
    const isQuestion = /\?\s*$/.test(clause) || QUESTION_START_RE.test(clause);
    if (isQuestion) anyQuestion = true;
    const m = SAVE_RE.exec(clause);
    const marker = SAVE_MARKER_RE.exec(clause) ?? KEEP_RE.exec(clause) ?? COMPOSED_RE.exec(clause) ?? FOREIGN_SAVE_RE.exec(clause);
    if (!m && !marker) continue;
    const verb = (m?.[1] ?? marker?.[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const rest = m?.[2] ?? '';
    // "I should write this down somewhere": the user keeps it themselves.
    const hit = m ?? marker;
    const selfKept = hit !== null && /\b(?:i|i'll|i'd|i'm|we|we'll|we'd|we're)\s+(?:(?:should|will|shall|must|need\s+to|have\s+to|gotta|might|can|could|probably|definitely|really|better|going\s+to|gonna|just)\s+){0,3}$/i.test(clause.slice(0, hit.index));
    const negated = selfKept || NEGATION_RE.test(clause) && !/\b(?:don'?t|do not|never) forget\b/i.test(clause);
    const politeRe = /\b(?:can|could|would|will) you\b|\bwould you (?:mind|be so kind)\b/i;
    const polite = m ? politeRe.test(clause.slice(0, clause.toLowerCase().indexOf(verb) + 1)) : marker ? politeRe.test(clause.slice(0, marker.index + 1)) : false;
    // "do you remember ...?" asks about memory; "can you remember that ...?" asks to keep something.
    const memoryQuestion = /\b(?:do|did|does) you (?:still )?(?:remember|recall)\b/i.test(clause) || /\bremember (?:how|what|when|where|who|which|why|if|whether)\b/i.test(clause) && isQuestion;
    // "remember to add tests", "don't forget to include X in your answer": instructions, not memories.
    // "jot down an outline for a blog post" asks for a new text, not to keep one.
    const artifact = /^(?:jot|write|note)\b/i.test(verb) && /^\s*(?:a|an|some|me\s+(?:a|an|some))\s+(?!note\b)/i.test(rest);
    const taskScoped = artifact || !CORRECT_KEEP_RE.test(clause) && /^(?:remember|don'?t forget|do not forget|never forget|keep in mind|bear in mind)/i.test(verb) && (/^\s*to\s/i.test(rest) || (TASK_SCOPE_RE.test(rest) && !/^\s*for\s+(?:next\s+time|later|the\s+future)\s*(?:[:,\-–—]|that\b)/i.test(rest)));
    // "remember when we went to Crete" reminisces; it asks to keep nothing.
    // ... and "Remember me on this computer" names a checkbox.
    const reminiscing = /^remember$/i.test(verb) && /^\s*(?:when\s+(?:we|i|you|they|he|she|it|my|our)\b|the\s+time\b|that\s+time\b|back\s+when\b|how\s+(?:we|i)\b(?!\s+(?:(?:usually|always|normally|generally|really)\s+)?(?:like|prefer|want|take|need|do|use|have|work|write|feel|say|spell|pronounce|call)s?\b)|me\b(?!\s+(?:that|this)\b))/i.test(rest) && !FUTURE_FRAME_RE.test(clause);
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
      // "keep in mind my wife is allergic…", "remember i moved…": the clause after the verb has its own
      // first-person subject, so it states what to keep just as "that…" would.
      const ownClause = /^(?:remember|keep in mind|bear in mind|don'?t forget|do not forget|never forget)$/i.test(verb) && /^\s*(?:i|i'm|i've|i'd|my|we|we're|we've|our)\s+\S+\s+\S/i.test(rest);
      if (marker || ownClause || /^\s*(?:that\b|this\b|[:\-–—,])/i.test(rest) || /^(?:note\s+down|make|take|jot|write|add|commit|file|save|store|record|log|put|hang|hold|stash|lodge|keep\s+(?:this|that|it|a)|don'?t\s+let|do\s+not\s+let|make\s+sure\s+i)/i.test(verb)) saveStrong = true;
      matched.push((m?.[1] ?? marker?.[1] ?? '').trim());
      if (polite) politeRequest = true;
      cues.push(polite ? 'save_polite' : 'save_imperative');
      cues.push(`save_verb_${verb.split(' ')[0]}`);
    }
  }
  // "Note that the array can be empty. What should it return?" sets up a question, it keeps nothing.
  // So does "note: the following is a draft, pls proofread": "note" framing a text the assistant is asked to work on.
  if (saveRequest && (anyQuestion || TEXT_TASK_RE.test(norm)) && !(politeRequest && saveStrong) && matched.every((v) => /^(?:note|please note)$/i.test(v))) {
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
