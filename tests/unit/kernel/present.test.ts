import { describe, expect, it } from 'vitest';
import { MailroomError, present, statusOf, toErrorShape } from '../../../electron/core/kernel/errors';
import { pathParam } from '../../../electron/core/kernel/route';
import type { ApiRequest } from '../../../electron/core/kernel/types';

describe('present(): an indexed read the code relies on', () => {
  it('passes a present value through, falsy ones included', () => {
    expect(present(['a'][0], 'the first item')).toBe('a');
    expect(present([0][0], 'a count')).toBe(0);
    expect(present([''][0], 'a name')).toBe('');
  });

  it('fails a miss as an internal error (500) that names what was missing', () => {
    let thrown: unknown;
    try {
      present(new Array<string>()[0], 'the first item');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MailroomError);
    expect(statusOf(thrown)).toBe(500);
    expect(toErrorShape(thrown)).toEqual({ code: 'internal', message: 'Internal invariant broken: the first item is missing.' });
  });
});

describe('pathParam(): a path parameter of a route outside the shared contract', () => {
  const req = (params: Record<string, string>): ApiRequest => ({ params, query: new URLSearchParams(), body: undefined, headers: {} });

  it('reads a parameter the path names, and fails a name it does not', () => {
    expect(pathParam(req({ id: 'th_1' }), 'id')).toBe('th_1');
    expect(() => pathParam(req({ id: 'th_1' }), 'key')).toThrow('path parameter :key is missing');
  });
});
