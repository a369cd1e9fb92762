/** `read_file.no_secrets_files`: The file read is not a secrets file: an environment file (`.env`, `.env.*` but not templates), a private key (`id_rsa`, `id_ecdsa`, `id_ed25519`, `id_dsa`), or a file ending in `.pem` or `.key`, named so in canonical form (links followed, any letter case). */
import type { PolicyCheck } from 'agentguard';
import type { ReadFileArgs } from '../../types.ts';
import { secretsFinding } from '../lib/paths.ts';

export const check: PolicyCheck<ReadFileArgs> = (args, context) =>
  secretsFinding([args.path], context, 'agents never read secrets files; ask the person for what you need from it');
