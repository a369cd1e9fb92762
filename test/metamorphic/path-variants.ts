/**
 * Variants of a path that name the same file for the filesystem server: `.` and `..` segments, trailing and repeated
 * separators, a `./` prefix, the absolute and the relative spelling, a changed case, and a symbolic link to the file
 * or to a folder above it.
 */
import { lstat, symlink } from 'node:fs/promises';
import { posix } from 'node:path';
import fc from 'fast-check';

/** The separators of a path, by index. */
const separators = (path: string) => [...path].flatMap((char, index) => (char === '/' && index > 0 ? [index] : []));

/** Inserts `piece` before the separator `choice` picks, or in front of a path that has none. */
function atSeparator(path: string, choice: number, piece: string): string {
  const at = separators(path);
  if (at.length === 0) return path.startsWith('/') ? `${piece}${path}` : `${piece.slice(1)}/${path}`;
  const index = at[choice % at.length] as number;
  return `${path.slice(0, index)}${piece}${path.slice(index)}`;
}

/** One spelling change of a path, given the project folder it is relative to and a choice among its places. */
type Respelling = (path: string, root: string, choice: number) => string;

const respellings: Record<string, Respelling> = {
  'trailing-separator': (path) => `${path}/`,
  'trailing-dot': (path) => `${path}/.`,
  'dot-segment': (path, _root, choice) => atSeparator(path, choice, '/.'),
  'parent-segment': (path, _root, choice) => atSeparator(path, choice, '/metamorphic/..'),
  'repeated-separator': (path, _root, choice) => {
    const at = separators(path);
    if (at.length === 0) return path.startsWith('/') ? `/${path}` : `.//${path}`;
    const index = at[choice % at.length] as number;
    return `${path.slice(0, index)}/${path.slice(index)}`;
  },
  'dot-prefix': (path, root) => (path.startsWith('/') ? `./${posix.relative(root, path) || '.'}` : `./${path}`),
  'other-form': (path, root) => (path.startsWith('/') ? posix.relative(root, path) || '.' : posix.join(root, path)),
};

/** Paths the server reads from the home directory or as Windows paths: respelling them changes their meaning. */
const literal = (path: string) => path.startsWith('~') || /^[A-Za-z]:|\\/.test(path);

/**
 * A path respelt one to three times; names the same file as `path` does when read against `root`.
 *
 * @example
 * ```ts
 * fc.sample(respelt('/project/.env', '/project'), 2); // e.g. ['/project//.env/.', './.env/']
 * ```
 */
export const respelt = (path: string, root: string): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.constantFrom(...Object.keys(respellings)), fc.nat()), { minLength: 1, maxLength: 3 })
    .map((steps) =>
      literal(path)
        ? path
        : steps.reduce((spelt, [name, choice]) => (respellings[name] as Respelling)(spelt, root, choice), path),
    );

/**
 * The path with the case of its last name changed: the same file on a case-insensitive file system (macOS, Windows),
 * and a name the policy reads the same way anywhere.
 */
export const recased = (path: string): fc.Arbitrary<string> =>
  fc.boolean().map((upper) => {
    const cut = path.lastIndexOf('/') + 1;
    const name = path.slice(cut);
    return `${path.slice(0, cut)}${upper ? name.toUpperCase() : name.replace(/^./, (char) => char.toUpperCase())}`;
  });

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

let links = 0;

/**
 * Makes a symbolic link in `root` to the file `path` names, or to the nearest folder above it that exists, and
 * returns the path through the link; undefined for a path that cannot be followed (under `~`, a Windows path, or
 * nothing above it but `/`).
 */
export async function throughLink(path: string, root: string): Promise<string | undefined> {
  if (literal(path)) return undefined;
  const absolute = posix.resolve(root, path);
  let target = absolute;
  while (!(await exists(target))) target = posix.dirname(target);
  if (target === '/') return undefined;
  const link = posix.join(root, `metamorphic-link-${++links}`);
  await symlink(target, link);
  return `${link}${absolute.slice(target.length)}`;
}
