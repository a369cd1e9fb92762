import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/**
 * Where Chromium is on this machine: `CHROMIUM_PATH` when set, else `chromium` (Debian's package) or
 * `chromium-browser` on the `PATH`; undefined when there is none. Used by the review page's browser tests and its
 * screenshot script, which drive it with `playwright-core`.
 *
 * @example
 * ```ts
 * const executablePath = findChromium();
 * ```
 */
export function findChromium(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured !== undefined && configured !== '') return existsSync(configured) ? configured : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

/**
 * Starts headless Chromium from `findChromium()`.
 *
 * @example
 * ```ts
 * const browser = await launchChromium(findChromium() ?? '/usr/bin/chromium');
 * ```
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, timeout: 30_000 });
}
