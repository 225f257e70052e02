/**
 * The device and browser a User-Agent header names, for the list of signed-in devices. A short ordered rule set
 * rather than a parser library: the list only has to tell a user's own devices apart, and the browsers people use
 * name themselves in a few well-known tokens. Order matters: Edge, Opera and Samsung Internet also say "Chrome",
 * and every Chromium browser also says "Safari".
 */

export type DeviceDescription = { device: string; browser: string };

const UNKNOWN: DeviceDescription = { device: 'Unknown device', browser: 'Unknown browser' };

const DEVICE_RULES: ReadonlyArray<[RegExp, string]> = [
  [/iPad/, 'iPad'],
  [/iPhone|iPod/, 'iPhone'],
  [/Android.*Mobile/, 'Android phone'],
  [/Android/, 'Android tablet'],
  [/CrOS/, 'Chromebook'],
  [/Windows/, 'Windows computer'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Linux|X11/, 'Linux computer'],
];

// The token a browser names itself with, and the name shown; the version follows the token's slash.
const BROWSER_RULES: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|OPiOS)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\b(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  if (!userAgent) return UNKNOWN;
  const device = DEVICE_RULES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? UNKNOWN.device;
  for (const [pattern, name] of BROWSER_RULES) {
    const match = pattern.exec(userAgent);
    if (match) return { device, browser: `${name} ${match[1]}` };
  }
  return { device, browser: UNKNOWN.browser };
}
