/** The browser every test and benchmark drives: Debian's Chromium (`apt-get install chromium`), never a download. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
