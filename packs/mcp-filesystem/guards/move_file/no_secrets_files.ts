/** `move_file.no_secrets_files`: Neither the source nor the destination of a move is a secrets file: an environment file (`.env`, `.env.*` but not templates), a private key (`id_rsa`, `id_ecdsa`, `id_ed25519`, `id_dsa`), or a file ending in `.pem` or `.key`. */
import type { PolicyCheck } from 'agentguard';
import type { MoveFileArgs } from '../../types.ts';
import { secretsKind } from '../lib/paths.ts';

export const check: PolicyCheck<MoveFileArgs> = (args) => {
  const found = [args.source, args.destination].flatMap((path) => {
    const kind = secretsKind(path);
    return kind === undefined ? [] : [`\`${path}\` is ${kind}`];
  });
  return found.length === 0
    ? undefined
    : { message: `${found.join('; ')}; agents never move or rename secrets files, nor move files to their names` };
};
