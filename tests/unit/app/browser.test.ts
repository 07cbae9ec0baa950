import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../../electron/core/host/browser';

describe('the program that opens the browser', () => {
  it('is the platform opener, as an argv without a shell', () => {
    expect(browserCommand({}, 'linux')).toEqual(['xdg-open']);
    expect(browserCommand({}, 'darwin')).toEqual(['open']);
    // `start` needs cmd.exe; rundll32 opens the default browser without a shell.
    expect(browserCommand({}, 'win32')).toEqual(['rundll32', 'url.dll,FileProtocolHandler']);
  });

  it('MAILROOM_BROWSER overrides it, taken as one program path (spaces included)', () => {
    expect(browserCommand({ MAILROOM_BROWSER: '/opt/My Browser/run' }, 'linux')).toEqual(['/opt/My Browser/run']);
  });
});
