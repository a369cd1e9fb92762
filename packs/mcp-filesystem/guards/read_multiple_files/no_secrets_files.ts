/** `read_multiple_files.no_secrets_files`: The files read are not secrets files: an environment file (`.env`, `.env.*` but not templates), a private key (`id_rsa`, `id_ecdsa`, `id_ed25519`, `id_dsa`), or a file ending in `.pem` or `.key`, named so in canonical form (links followed, any letter case). */
import type { PolicyCheck } from 'agentguard';
import type { ReadMultipleFilesArgs } from '../../types.ts';
import { secretsFinding } from '../lib/paths.ts';

export const check: PolicyCheck<ReadMultipleFilesArgs> = (args, context) =>
  secretsFinding(
    args.paths,
    context,
    'agents never read secrets files; read the other files without them, and ask the person for what you need from a secrets file',
  );
