import { describe, expect, it } from 'vitest';
import { describeCondition, matches, parseCondition } from '../../../electron/core/domains/router/conditions';
import type { RoutableItem } from '../../../electron/core/domains/router/types';

const item: RoutableItem = {
  title: 'TODO: call Dana about the swim meet',
  content: 'Owen has a meet on Friday.\nBring towels.',
  folder: 'family/swim/',
  intent: 'task',
  entities: ['Dana', 'Owen'],
  tags: ['#family', 'todo'],
  source: 'mcp',
};

describe('route conditions', () => {
  it('match on folder, intent, entities, tags, source and regexes on title/content', () => {
    const yes = (c: unknown) => expect(matches(parseCondition(c), item)).toBe(true);
    const no = (c: unknown) => expect(matches(parseCondition(c), item)).toBe(false);
    yes({ field: 'intent', op: 'equals', value: 'TASK' });
    no({ field: 'intent', op: 'equals', value: 'TASK', case_sensitive: true });
    yes({ field: 'folder', op: 'equals', value: 'family/swim' });
    yes({ field: 'folder', op: 'starts_with', value: 'family/' });
    yes({ field: 'entities', op: 'in', value: ['Bob', 'dana'] });
    yes({ field: 'tags', op: 'equals', value: 'family' });
    no({ field: 'tags', op: 'equals', value: 'work' });
    yes({ field: 'source', op: 'not_equals', value: 'mail' });
    yes({ field: 'title', op: 'matches', value: '^todo\\b' });
    yes({ field: 'content', op: 'matches', value: 'bring\\s+towels' });
    no({ field: 'path', op: 'exists' });
    yes({ all: [{ field: 'intent', op: 'equals', value: 'task' }, { any: [{ field: 'tags', op: 'equals', value: 'work' }, { field: 'entities', op: 'contains', value: 'ow' }] }] });
    no({ not: { field: 'intent', op: 'equals', value: 'task' } });
    yes({ always: true });
    yes({ all: [] });
    no({ any: [] });
  });

  it('refuses malformed conditions with a message that says what to fix', () => {
    expect(() => parseCondition({ field: 'colour', op: 'equals', value: 'x' })).toThrow(/Invalid route condition/);
    expect(() => parseCondition({ field: 'title', op: 'matches', value: '([a-z' })).toThrow(/not a valid regular expression/);
    expect(() => parseCondition({ field: 'tags', op: 'in', value: 'x' })).toThrow(/needs a list/);
    expect(() => parseCondition({ field: 'tags', op: 'equals' })).toThrow(/needs a value/);
    expect(() => parseCondition({ field: 'title', op: 'matches', value: 'a'.repeat(501) })).toThrow(/longer than 500/);
  });

  it('reads back as one line for lists', () => {
    expect(describeCondition(parseCondition({ all: [{ field: 'intent', op: 'equals', value: 'task' }, { field: 'title', op: 'matches', value: '^TODO' }] }))).toBe(
      'intent equals "task" and title matches /^TODO/',
    );
  });
});
