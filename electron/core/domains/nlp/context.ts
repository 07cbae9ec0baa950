/**
 * Recent messages (the seed's Phase 3 context): a bounded buffer per conversation so a short
 * "yes, let's do that" can be read against what came before it.
 */
export interface ContextMessage {
  role: 'user' | 'assistant';
  content: string;
}

export class RecentMessages {
  private readonly buffer: ContextMessage[] = [];
  constructor(private readonly max = 10) {}
  add(m: ContextMessage): void {
    this.buffer.push(m);
    if (this.buffer.length > this.max) this.buffer.splice(0, this.buffer.length - this.max);
  }
  last(n = 5): ContextMessage[] {
    return this.buffer.slice(-n);
  }
  get size(): number {
    return this.buffer.length;
  }
}

/** "yes", "sounds good, let's do that", "go with the second one": agreement that needs context to mean anything. */
export const CONFIRMATION_RE =
  /^\W*(?:yes|yep|yeah|yup|sure|ok(?:ay)?|agreed|deal|perfect|great|sounds good|that works|let'?s (?:do|go with) (?:that|it|this|the \w+ one)|go with (?:that|it|this|the \w+ one)|do it|ship it)\b[^?]*$/i;
