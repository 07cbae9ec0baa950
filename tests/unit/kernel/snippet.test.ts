import { describe, expect, it } from 'vitest';
import { makeSnippet } from '../../../electron/core/kernel/snippet';

/** Snippets are cut in JavaScript for the returned page only (mail and vault search). */
describe('makeSnippet', () => {
  const long = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ');

  it('shows the window around the first match, with the match marked and cut ends marked', () => {
    const text = long.replace('w2500', 'Kyōto');
    expect(makeSnippet(text, ['"kyoto"'], 6, ['[', ']'], ' … ')).toBe(' … w2498 w2499 [Kyōto] w2501 w2502 w2503 … ');
  });

  it('starts at the beginning when the match is near it, and ends without a mark at the end of the text', () => {
    expect(makeSnippet('alpha beta gamma', ['"beta"'], 12)).toBe('alpha **beta** gamma');
    expect(makeSnippet('one two three four five six', ['"six"'], 3)).toBe('…four five **six**');
  });

  it('matches prefixes and phrases word by word, and shows the start of the text when nothing matches', () => {
    expect(makeSnippet('the swimming meet', ['"swim"*'], 12)).toBe('the **swimming** meet');
    expect(makeSnippet('the swim meet today', ['"swim meet"'], 12)).toBe('the **swim** **meet** today');
    expect(makeSnippet(long, ['"absent"'], 3)).toBe('w0 w1 w2…');
  });
});
