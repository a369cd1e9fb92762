/**
 * Paths in the form the filesystem server acts on. The server takes POSIX paths, absolute or relative to one of its
 * allowed directories (reported by the `list_allowed_directories` lookup); it expands `~`, resolves `.`, `..` and
 * repeated or trailing separators, refuses Windows drive paths on POSIX, and follows symbolic links before it
 * acts. The rules read a path only in that canonical form, and both the folder rules and the secrets rules read
 * where it really points through one lookup (`locate`): the `agentguard_real_path` lookup when the proxy runs beside
 * the server, and otherwise the server's read-only tools; when neither can tell, the rules refuse.
 */
import type { GuardContext } from 'agentguard';

/** The proxy's own lookup: where a path really points, answered from the proxy's view of the server's disk. */
const realPathLookup = 'agentguard_real_path';

/** A POSIX path with `.` and `..` resolved and repeated or trailing slashes removed; `/` for the root. */
export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

const within = (path: string, directory: string) =>
  path === directory || path.startsWith(directory === '/' ? '/' : `${directory}/`);

const textOf = (answer: unknown): string =>
  typeof answer === 'string'
    ? answer
    : typeof answer === 'object' && answer !== null && typeof (answer as { content?: unknown }).content === 'string'
      ? (answer as { content: string }).content
      : '';

/** The allowed directories the server reports, normalized. */
export async function allowedDirectories(context: GuardContext): Promise<string[]> {
  return textOf(await context.invoker.invoke('list_allowed_directories', {}))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('/'))
    .map(normalizePath);
}

/**
 * The absolute path the server acts on for `path`, before links: an absolute path normalized; a relative one resolved
 * against the first allowed directory it stays inside, else against the first (as the server resolves it).
 */
export function canonicalPath(path: string, directories: readonly string[]): string {
  if (path.startsWith('/')) return normalizePath(path);
  const candidates = directories.map((directory) => normalizePath(`${directory}/${path}`));
  return (
    candidates.find((candidate) => directories.some((directory) => within(candidate, directory))) ??
    candidates[0] ??
    normalizePath(path)
  );
}

const homePath = (path: string) => path === '~' || path.startsWith('~/');

/**
 * Why a path lies outside the allowed directories, or undefined when it lies inside one. A relative path is inside
 * when it resolves inside one of them, as the server resolves it.
 */
export function outsideReason(path: string, directories: readonly string[]): string | undefined {
  if (path.startsWith('~')) return `\`${path}\` is under the home directory (\`~\`), which counts as outside`;
  if (/^[A-Za-z]:/.test(path) || path.includes('\\')) return `\`${path}\` is a Windows path, which counts as outside`;
  if (path.includes('\u0000')) return `\`${path}\` holds a null character, which no file name may`;
  const canonical = canonicalPath(path, directories);
  if (directories.some((directory) => within(canonical, directory))) return undefined;
  return `\`${path}\` is outside the project folder (${directories.join(', ') || 'no allowed directory'})`;
}

/**
 * Why the real location of `path`, a path whose name lies inside, is or may be outside the allowed directories;
 * undefined when it lies inside. A new path lies where the folder the server would create it in really lies.
 */
async function realOutsideReason(
  path: string,
  directories: readonly string[],
  context: GuardContext,
): Promise<string | undefined> {
  const found = await locate(path, context);
  if (found.seen === 'disk') {
    if (directories.some((directory) => within(found.path, directory))) return undefined;
    return `\`${path}\` really points to \`${found.path}\`, outside the project folder (${directories.join(', ')})`;
  }
  return found.exists ? undefined : newPathReason(path, canonicalPath(path, directories), directories, context);
}

/**
 * For a path the server does not find: why where it would be created cannot be told, or undefined when it would be
 * created inside. The nearest folder above it that the server lists lies inside (the server lists only those); the
 * path is new when the name below that folder is not listed in it, and a listed name the server did not find is a
 * link it will not follow (its target lies outside, or does not exist).
 */
async function newPathReason(
  path: string,
  absolute: string,
  directories: readonly string[],
  context: GuardContext,
): Promise<string | undefined> {
  for (let child = absolute; child !== '/'; ) {
    const parent = child.slice(0, child.lastIndexOf('/')) || '/';
    if (!directories.some((directory) => within(parent, directory))) break;
    let listing: string;
    try {
      listing = textOf(await context.invoker.invoke('list_directory', { path: parent }));
    } catch {
      child = parent;
      continue;
    }
    const name = child.slice(parent.length + (parent === '/' ? 0 : 1)).normalize('NFC');
    const listed = listing.split('\n').some((line) => line.replace(/^\[(FILE|DIR)\] /, '').normalize('NFC') === name);
    if (!listed) return undefined;
    return `where \`${path}\` really points cannot be told: \`${child}\` exists but the server does not act on it (a link whose target lies outside the project folder, or does not exist)`;
  }
  return `where \`${path}\` really points cannot be told: the server lists no folder above it`;
}

/**
 * The checked paths that lie outside, with the reason, as a finding; undefined when all lie inside. A path lies inside
 * when its name does, as the server resolves it, and its real location does, links followed (`locate`).
 */
export async function outsideFinding(
  paths: readonly string[],
  context: GuardContext,
): Promise<{ message: string; facts: Record<string, unknown> } | undefined> {
  const directories = await allowedDirectories(context);
  const reasons: string[] = [];
  for (const path of paths) {
    const reason = outsideReason(path, directories) ?? (await realOutsideReason(path, directories, context));
    if (reason !== undefined) reasons.push(reason);
  }
  if (reasons.length === 0) return undefined;
  return { message: reasons.join('; '), facts: { allowedDirectories: directories } };
}

const templates = new Set(['.env.example', '.env.sample', '.env.template']);

/**
 * The name of the file a path ends at, as any server could read it: `\` counts as a separator too, `.` and `..`
 * are resolved, and letter case, Unicode composition, trailing dots and spaces and an NTFS stream suffix (`:…`),
 * which some file systems ignore, are set aside. Empty when the path ends above its start.
 */
function fileNames(path: string): string[] {
  const parts: string[] = [];
  for (const part of path.split(/[/\\]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const name = (parts.at(-1) ?? '').normalize('NFC').toLowerCase();
  const strip = (text: string) => text.replace(/^["']+|["'. ]+$/g, '');
  return [...new Set([strip(name), strip(name.split(':')[0] ?? '')])].filter((text) => text !== '');
}

function nameKind(name: string): string | undefined {
  if (templates.has(name)) return undefined;
  if (name === '.env' || name.startsWith('.env.')) return 'an environment file';
  if (/^id_(rsa|dsa|ecdsa|ed25519)$/.test(name)) return 'a private key';
  if (name.endsWith('.pem') || name.endsWith('.key')) return 'a key or certificate file';
  return undefined;
}

/**
 * What kind of secrets file a path names (environment file, private key, key or certificate), or undefined. The name
 * is read in canonical form and compared without regard to letter case: `id_rsa/.`, `server.pem/`, `.ENV` and
 * `keys\\id_rsa` all name secrets files.
 */
export function secretsKind(path: string): string | undefined {
  for (const name of fileNames(path)) {
    const kind = nameKind(name);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** Where a path really points: known (links followed), or a reason it cannot be told. */
type Target =
  | { known: true; path: string; exists: boolean; isDirectory: boolean }
  | { known: false; exists: true; isDirectory: boolean; twin?: string; reason?: string };

const isRealPath = (
  value: unknown,
): value is { realPath: string; exists: boolean; isDirectory: boolean; hardLinks?: number } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { realPath?: unknown }).realPath === 'string' &&
  typeof (value as { exists?: unknown }).exists === 'boolean' &&
  typeof (value as { isDirectory?: unknown }).isDirectory === 'boolean';

/** Each letter as a class of both cases, for a case-blind glob. */
const anyCase = (text: string) => text.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);

/** A glob for every secrets file name, in any letter case (templates included; they are filtered after). */
const secretsGlob = `**/{${[
  anyCase('.env'),
  `${anyCase('.env')}.*`,
  ...['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519'].map(anyCase),
  `*${anyCase('.pem')}`,
  `*${anyCase('.key')}`,
].join(',')}}`;

/** The secrets files of the allowed directories, each with its `get_file_info`: searched once per check. */
type SecretsFiles = () => Promise<[path: string, info: string | undefined][]>;

function secretsFiles(context: GuardContext): SecretsFiles {
  let found: Promise<[string, string | undefined][]> | undefined;
  const search = async () => {
    const files: [string, string | undefined][] = [];
    for (const directory of await allowedDirectories(context)) {
      const answer = textOf(await context.invoker.invoke('search_files', { path: directory, pattern: secretsGlob }));
      for (const path of answer.split('\n').map((line) => line.trim())) {
        if (!path.startsWith('/') || secretsKind(path) === undefined) continue;
        files.push([path, await context.invoker.invoke('get_file_info', { path }).then(textOf, () => undefined)]);
      }
    }
    return files;
  };
  return () => {
    found ??= search();
    return found;
  };
}

/** Where a path really points, seen on the disk: links followed. */
interface OnDisk {
  seen: 'disk';
  path: string;
  exists: boolean;
  isDirectory: boolean;
  hardLinks: number;
}

/** What the server tells of a path: whether it finds it and, when it does, its `get_file_info`. */
type OnServer =
  | { seen: 'server'; exists: true; isDirectory: boolean; info: string }
  | { seen: 'server'; exists: false };

/** Where `path` really points from the proxy's view of the disk (`agentguard_real_path`); undefined without one. */
async function onDisk(path: string, context: GuardContext): Promise<OnDisk | undefined> {
  try {
    const absolute = homePath(path) ? path : canonicalPath(path, await allowedDirectories(context));
    const answer = await context.invoker.invoke(realPathLookup, { path: absolute });
    if (!isRealPath(answer)) return undefined;
    const { realPath, exists, isDirectory, hardLinks } = answer;
    return { seen: 'disk', path: realPath, exists, isDirectory, hardLinks: hardLinks ?? 1 };
  } catch {
    return undefined;
  }
}

/**
 * What the server's `get_file_info` tells of `path`: the server finds a path only when its real location lies inside
 * the allowed directories (it follows links and refuses targets outside), and does not say where a link points.
 */
async function onServer(path: string, context: GuardContext): Promise<OnServer> {
  try {
    const info = textOf(await context.invoker.invoke('get_file_info', { path }));
    return { seen: 'server', exists: true, isDirectory: /^isDirectory: true$/m.test(info), info };
  } catch {
    return { seen: 'server', exists: false };
  }
}

/** Where `path` really points: from the proxy's view of the disk when it has one, otherwise from the server. */
async function locate(path: string, context: GuardContext): Promise<OnDisk | OnServer> {
  return (await onDisk(path, context)) ?? onServer(path, context);
}

/**
 * Where `path` really points, as the secrets rules read it (`locate`): a path the server does not find is not an
 * existing file (the server creates it under its own name, or refuses), and an existing one the disk does not name
 * is compared with the secrets files of the allowed directories (`secretsFiles`), as is a file the proxy finds to
 * have several names (hard links).
 */
async function target(path: string, context: GuardContext, secrets: SecretsFiles): Promise<Target> {
  const disk = await onDisk(path, context);
  // A file with several names (hard links) may be a secrets file under another name: compared below.
  if (disk !== undefined && (disk.hardLinks <= 1 || disk.isDirectory || secretsKind(disk.path) !== undefined)) {
    return { known: true, path: disk.path, exists: disk.exists, isDirectory: disk.isDirectory };
  }
  const found = await onServer(path, context);
  if (!found.exists) return { known: true, path, exists: false, isDirectory: false };
  const { info, isDirectory } = found;
  try {
    // A link has its target's size, times and permissions: a file that shares none of theirs is no link to one.
    const twin = (await secrets()).find(([other, otherInfo]) => otherInfo === info && other !== path)?.[0];
    return twin === undefined
      ? { known: false, exists: true, isDirectory }
      : { known: false, exists: true, isDirectory, twin };
  } catch (error) {
    return { known: false, exists: true, isDirectory, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The secrets files a directory tree (`directory_tree`'s JSON) holds, as paths below its root. */
function secretsIn(tree: unknown, prefix: string): string[] {
  if (!Array.isArray(tree)) return [];
  return tree.flatMap((entry: { name?: unknown; type?: unknown; children?: unknown }) => {
    if (typeof entry?.name !== 'string') return [];
    const path = `${prefix}/${entry.name}`;
    return [...(secretsKind(entry.name) === undefined ? [] : [path]), ...secretsIn(entry.children, path)];
  });
}

/**
 * Why `path` is, or may be, a secrets file, or undefined when it is not: by its name in canonical form, by where it
 * really points when it is a link, and, with `contents`, by the secrets files a directory holds (a move takes them
 * along). Refuses a path whose target cannot be told.
 */
async function secretsReason(
  path: string,
  context: GuardContext,
  secrets: SecretsFiles,
  options: { contents?: boolean },
): Promise<string | undefined> {
  const named = secretsKind(path);
  if (named !== undefined) return `\`${path}\` is ${named}`;
  const real = await target(path, context, secrets);
  const kind = real.known ? secretsKind(real.path) : undefined;
  if (real.known && kind !== undefined) return `\`${path}\` really points to \`${real.path}\`, ${kind}`;
  if (!real.known && real.twin !== undefined) {
    return `\`${path}\` may be a link to \`${real.twin}\`, ${secretsKind(real.twin)} (it has the same size, times and permissions; without a view of the disk links cannot be told apart)`;
  }
  if (!real.known && real.reason !== undefined) {
    return `where \`${path}\` really points cannot be told (${real.reason})`;
  }
  if (options.contents === true && real.exists && real.isDirectory) {
    const tree = JSON.parse(textOf(await context.invoker.invoke('directory_tree', { path }))) as unknown;
    const held = secretsIn(tree, path.replace(/(\/\.?)+$/, ''));
    if (held.length > 0) {
      return `\`${path}\` is a directory holding secrets files (${held.map((file) => `\`${file}\``).join(', ')})`;
    }
  }
  return undefined;
}

/** The paths that are, or may be, secrets files, as a finding whose message ends with `rule`; undefined when none. */
export async function secretsFinding(
  paths: readonly string[],
  context: GuardContext,
  rule: string,
  options: { contents?: boolean } = {},
): Promise<{ message: string } | undefined> {
  const reasons: string[] = [];
  const secrets = secretsFiles(context);
  for (const path of paths) {
    const reason = await secretsReason(path, context, secrets, options);
    if (reason !== undefined) reasons.push(reason);
  }
  return reasons.length === 0 ? undefined : { message: `${reasons.join('; ')}; ${rule}` };
}
