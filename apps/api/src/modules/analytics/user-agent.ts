/** What the analytics keep of a User-Agent: three short labels, never the string itself. */
export interface ClientClass {
  browser: string;
  os: string;
  device: 'desktop' | 'mobile' | 'tablet' | 'tv' | 'unknown';
}

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari, so the more specific come first.
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(Headless)?Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const TV = /\b(SmartTV|SMART-TV|AppleTV|CrKey|Tizen|Web0S|webOS\.TV|BRAVIA|HbbTV)\b/i;
const TABLET = /\b(iPad|Tablet)\b/;
const MOBILE = /\b(Mobi|iPhone|iPod)\b/;

/** The browser, operating system and device class a User-Agent names ('Other' / 'unknown' when it does not). */
export function classifyUserAgent(userAgent: string | undefined): ClientClass {
  // A User-Agent is the client's to write: only its first 512 characters are looked at.
  const ua = (userAgent ?? '').slice(0, 512);
  if (!ua) return { browser: 'Other', os: 'Other', device: 'unknown' };
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? 'Other';
  const os = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? 'Other';
  return { browser, os, device: deviceOf(ua, os) };
}

function deviceOf(ua: string, os: string): ClientClass['device'] {
  if (TV.test(ua)) return 'tv';
  if (TABLET.test(ua) || (os === 'Android' && !/\bMobile\b/.test(ua))) return 'tablet';
  if (MOBILE.test(ua) || os === 'Android') return 'mobile';
  if (os === 'Other') return 'unknown';
  return 'desktop';
}
