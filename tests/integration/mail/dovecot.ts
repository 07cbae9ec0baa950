import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const DOVECOT = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'].find((p) => fs.existsSync(p));

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A real Dovecot IMAP server in a temp dir (plaintext on 127.0.0.1, one user), run in the foreground. */
export async function startDovecot(user = 'alice', password = 'pa55-word') {
  if (!DOVECOT) throw new Error('dovecot is not installed (apt-get install dovecot-imapd)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dovecot-'));
  const port = await freePort();
  // Dovecot refuses uid 0 for mail access; as root, mail is owned by nobody.
  const root = (process.getuid?.() ?? 0) === 0;
  const uid = root ? 65534 : process.getuid!();
  const gid = root ? 65534 : process.getgid!();
  // The auth process runs as the dovecot user and must read the passwd file.
  fs.chmodSync(dir, 0o755);
  fs.mkdirSync(path.join(dir, 'run'));
  fs.writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`);
  fs.chmodSync(path.join(dir, 'passwd'), 0o644);
  const loginUser = root ? 'dovenull' : os.userInfo().username;
  const conf = `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 0
first_valid_gid = 0
mailbox_idle_check_interval = 1 secs
mail_location = maildir:${dir}/mail/%u
default_login_user = ${loginUser}
default_internal_user = ${root ? 'dovecot' : loginUser}
passdb {
  driver = passwd-file
  args = ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
`;
  fs.mkdirSync(path.join(dir, 'state'));
  for (const sub of ['mail', 'home']) {
    fs.mkdirSync(path.join(dir, sub));
    fs.chownSync(path.join(dir, sub), uid, gid);
  }
  const confFile = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(confFile, conf);
  const proc: ChildProcess = spawn(DOVECOT, ['-F', '-c', confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // Ready when the port accepts connections and greets.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('data', (d) => {
        s.destroy();
        resolve(/^\* OK/.test(d.toString()));
      });
      s.once('error', () => resolve(false));
    });
    if (ok) break;
    if (proc.exitCode !== null || Date.now() > deadline) {
      const log = fs.existsSync(path.join(dir, 'dovecot.log')) ? fs.readFileSync(path.join(dir, 'dovecot.log'), 'utf8') : '';
      throw new Error(`dovecot did not start: ${stderr} ${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    user,
    password,
    dir,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}
