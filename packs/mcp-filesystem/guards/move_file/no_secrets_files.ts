/** `move_file.no_secrets_files`: Neither the source nor the destination of a move is a secrets file: an environment file (`.env`, `.env.*` but not templates), a private key (`id_rsa`, `id_ecdsa`, `id_ed25519`, `id_dsa`), or a file ending in `.pem` or `.key`. */
import type { PolicyCheck } from 'agentguard';
import type { MoveFileArgs } from '../../types.ts';
import { secretsFinding } from '../lib/paths.ts';

export const check: PolicyCheck<MoveFileArgs> = (args, context) =>
  secretsFinding(
    [args.source, args.destination],
    context,
    'agents never move or rename secrets files, nor move files to their names',
    { contents: true },
  );
