/** `edit_file.no_secrets_files`: The file edited is not a secrets file: an environment file (`.env`, `.env.*` but not templates), a private key (`id_rsa`, `id_ecdsa`, `id_ed25519`, `id_dsa`), or a file ending in `.pem` or `.key`. */
import type { PolicyCheck } from 'agentguard';
import type { EditFileArgs } from '../../types.ts';
import { secretsFinding } from '../lib/paths.ts';

export const check: PolicyCheck<EditFileArgs> = (args, context) =>
  secretsFinding([args.path], context, 'agents never edit secrets files');
