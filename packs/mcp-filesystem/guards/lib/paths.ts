/**
 * Paths as the filesystem server reads them: POSIX paths, absolute or relative to an allowed directory. The server
 * reports its allowed directories through the `list_allowed_directories` lookup.
 */
import type { GuardContext } from 'agentguard';

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

/** The allowed directories the server reports, normalized. */
export async function allowedDirectories(context: GuardContext): Promise<string[]> {
  const answer = await context.invoker.invoke('list_allowed_directories', {});
  const text =
    typeof answer === 'string'
      ? answer
      : typeof answer === 'object' && answer !== null && typeof (answer as { content?: unknown }).content === 'string'
        ? (answer as { content: string }).content
        : '';
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('/'))
    .map(normalizePath);
}

/**
 * Why a path lies outside the allowed directories, or undefined when it lies inside one. A relative path is inside
 * when it resolves inside one of them, as the server resolves it.
 */
export function outsideReason(path: string, directories: readonly string[]): string | undefined {
  if (path.startsWith('~')) return `\`${path}\` is under the home directory (\`~\`), which counts as outside`;
  if (/^[A-Za-z]:/.test(path) || path.includes('\\')) return `\`${path}\` is a Windows path, which counts as outside`;
  const candidates = path.startsWith('/')
    ? [normalizePath(path)]
    : directories.map((directory) => normalizePath(`${directory}/${path}`));
  if (candidates.some((candidate) => directories.some((directory) => within(candidate, directory)))) return undefined;
  return `\`${path}\` is outside the project folder (${directories.join(', ') || 'no allowed directory'})`;
}

/** The checked paths that lie outside, with the reason, as a finding; undefined when all lie inside. */
export async function outsideFinding(
  paths: readonly string[],
  context: GuardContext,
): Promise<{ message: string; facts: Record<string, unknown> } | undefined> {
  const directories = await allowedDirectories(context);
  const reasons = paths.map((path) => outsideReason(path, directories)).filter((reason) => reason !== undefined);
  if (reasons.length === 0) return undefined;
  return { message: reasons.join('; '), facts: { allowedDirectories: directories } };
}

const templates = new Set(['.env.example', '.env.sample', '.env.template']);

/** What kind of secrets file a path names (environment file, private key, key or certificate), or undefined. */
export function secretsKind(path: string): string | undefined {
  const name = path.split(/[/\\]/).at(-1)?.toLowerCase() ?? '';
  if (templates.has(name)) return undefined;
  if (name === '.env' || name.startsWith('.env.')) return 'an environment file';
  if (/^id_(rsa|dsa|ecdsa|ed25519)$/.test(name)) return 'a private key';
  if (name.endsWith('.pem') || name.endsWith('.key')) return 'a key or certificate file';
  return undefined;
}
