/** The sentiment lexicon: words that show a writer's feeling, read on the latest (unquoted) text. */
import { containsPhrase } from './text';

export type Sentiment = 'negative' | 'neutral' | 'positive';

/** Words that alone show a writer's feeling, and weaker ones that count half (two are needed). */
const NEG_STRONG = ['angry', 'disappointed', 'disappointing', 'unacceptable', 'frustrated', 'frustrating', 'terrible', 'awful', 'worst', 'complaint', 'complain', 'annoyed', 'furious', 'ridiculous', 'unhappy', 'upset', 'worried', 'concerned', 'still not', 'still no', 'yet again', 'once again', 'third time', 'sorry to hear', 'fed up', 'not happy', 'not acceptable', 'legal action'];
const NEG_WEAK = ['final notice', 'final reminder', 'no heating', 'no hot water', 'outage', 'is down', 'are down', 'firing', 'broken', 'poor', 'fail', 'failed', 'failing', 'failure', 'fault', 'faulty', 'wrong', 'error', 'errors', 'crash', 'crashes', 'down', 'charged twice', 'overdue', 'problem', 'problems', 'cannot', "can't", 'unable', 'suspended', 'suspend', 'unfortunately', 'issue', 'issues', 'leak', 'leaking', 'missing', 'damaged', 'degraded', 'penalty', 'not working', "doesn't work", 'does not work', 'lost', 'late', 'delay', 'delayed', 'cancelled', 'canceled', 'urgent'];
const POS_STRONG = ['thanks so much', 'thank you so much', 'thank you very much', 'many thanks', 'congratulations', 'congrats', 'wonderful', 'delighted', 'fantastic', 'amazing', 'love', 'loved', 'brilliant', 'thrilled', 'well done', 'great work', 'great job', 'exactly what', 'happy birthday', 'so grateful', 'really appreciate', 'much appreciated', 'can\'t wait', 'lovely', 'looking forward'];
const POS_WEAK = ['excellent', 'thank you for', 'thanks for', 'great', 'appreciate', 'appreciated', 'happy', 'awesome', 'glad', 'perfect', 'pleased', 'enjoyed', 'enjoy', 'welcome', 'excited', 'beautiful', 'resolved', 'all clear', 'back to normal', 'good news', 'nice', 'celebrate', 'kind'];
const NEGATED = /\b(not|no|never|hardly)\s+(very\s+)?(happy|great|pleased|glad|good)\b/gi;

/** Lexicon sentiment on the latest (unquoted) text; conservative: most mail is neutral. */
export function sentimentScore(text: string, automated = false): { neg: number; pos: number } {
  const t = text.replace(NEGATED, ' ');
  const weak = automated ? 0.25 : 0.5;
  const neg = NEG_STRONG.filter((w) => containsPhrase(t, w)).length + weak * NEG_WEAK.filter((w) => containsPhrase(t, w)).length + (NEGATED.test(text) ? 1 : 0);
  const pos = POS_STRONG.filter((w) => containsPhrase(t, w)).length + weak * POS_WEAK.filter((w) => containsPhrase(t, w)).length;
  return { neg, pos };
}

export function sentimentOf(text: string, automated = false): Sentiment {
  const { neg, pos } = sentimentScore(text, automated);
  if (neg >= 1 && neg - pos >= 0.75) return 'negative';
  if (pos >= 1 && pos - neg >= 0.75) return 'positive';
  return 'neutral';
}

