// The first step of `npm test`: what the tests need beyond node_modules, installed when this user may install it,
// else named with the one command to run, before anything else takes its time.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../tests/support/chromium.ts';

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const succeeds = (command: string, args: string[], stdio: 'ignore' | 'inherit' = 'ignore') =>
  spawnSync(command, args, { stdio, env }).status === 0;

/** How this user runs a command as root without being asked for a password: directly, through sudo, or not at all. */
function rootPrefix() {
  if (process.getuid?.() === 0) return [];
  if (succeeds('sudo', ['-n', 'true'])) return ['sudo', '-n', '-E'];
  return undefined;
}

function installChromium() {
  const prefix = rootPrefix();
  if (!prefix || !succeeds('apt-get', ['--version'])) return false;
  console.log(`Chromium is missing at ${CHROMIUM_PATH}: installing Debian's chromium package…`);
  const asRoot = (...args: string[]) => {
    const [command, ...rest] = [...prefix, ...args];
    return succeeds(command!, rest, 'inherit');
  };
  return asRoot('apt-get', 'update', '-q') && asRoot('apt-get', 'install', '-y', '-q', 'chromium');
}

if (!existsSync(CHROMIUM_PATH) && !(installChromium() && existsSync(CHROMIUM_PATH))) {
  console.error(
    `The browser tests need Chromium at ${CHROMIUM_PATH}, and this user cannot install it. Run:\n\n  sudo apt-get install chromium\n`,
  );
  process.exit(1);
}
