/** `write_file.no_secrets_files`: The file written is not a secrets file: an environment file (`.env`, `.env.*` but not templates), a private key (`id_rsa`, `id_ecdsa`, `id_ed25519`, `id_dsa`), or a file ending in `.pem` or `.key`. */
import type { PolicyCheck } from 'agentguard';
import type { WriteFileArgs } from '../../types.ts';
import { secretsFinding } from '../lib/paths.ts';

export const check: PolicyCheck<WriteFileArgs> = (args, context) =>
  secretsFinding([args.path], context, 'agents never write secrets files');
