import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/owner';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-eval-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const evalScript = path.join(REPO_ROOT, 'models', 'train', 'eval.ts');
const cli = (args: string[]) => run(process.execPath, ['--import', 'tsx', evalScript, ...args], { cwd: REPO_ROOT, timeout: 60_000 });

describe('npm run eval:models -- --intent FILE --ner FILE', () => {
  it('scores files given on the command line, beside the baselines', async () => {
    const intent = path.join(dir, 'intent.tsv');
    const ner = path.join(dir, 'ner.txt');
    fs.writeFileSync(
      intent,
      [
        '# intent\texplicit_save\turgency\ttags\ttext',
        'SAVE_FACT\t1\tnormal\t-\tnote to self: the boiler code is 4471',
        'QUESTION\t0\tnormal\thardneg\thow do I save a file in vim?',
        'GREETING\t0\tnormal\t-\tgood morning!',
        'RECALL_INFO\t0\tnormal\t-\twhat did I tell you about the Porto trip?',
      ].join('\n'),
    );
    fs.writeFileSync(ner, '# ner\n[Amara Okafor](PERSON) flies to [Lisbon](GPE) on [Friday](DATE) at [9:30](TIME)\n');
    const { stdout } = await cli(['--intent', intent, '--ner', ner]);
    expect(stdout).toContain('Intent — 4 messages');
    expect(stdout).toMatch(/accuracy\s+\d\.\d{3}\s+\d\.\d{3}/);
    expect(stdout).toMatch(/recall\s+1\.000/);
    expect(stdout).toMatch(/false-positive rate, all negatives\s+0\.000/);
    expect(stdout).toContain('Urgency — accuracy');
    expect(stdout).toContain('NER — 1 sentences, 4 entities');
    for (const t of ['PERSON', 'ORG', 'PRODUCT', 'GPE', 'DATE', 'TIME', 'overall']) expect(stdout).toMatch(new RegExp(`\\n  ${t}\\s+`));
    expect(stdout).not.toContain('eval.tsv'); // only the files asked for
  }, 90_000);

  it('rejects a malformed file with the line that is wrong', async () => {
    const bad = path.join(dir, 'bad.tsv');
    fs.writeFileSync(bad, 'NOT_AN_INTENT\t0\tnormal\t-\thello\n');
    await expect(cli(['--intent', bad])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('bad.tsv:1: unknown intent NOT_AN_INTENT') });
  }, 90_000);
});
