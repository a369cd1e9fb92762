/** `move_file.inside_project_folder`: Both the source and the destination of a move lie inside the project folder (the server's allowed directories). */
import type { PolicyCheck } from 'agentguard';
import type { MoveFileArgs } from '../../types.ts';
import { outsideFinding } from '../lib/paths.ts';

export const check: PolicyCheck<MoveFileArgs> = (args, context) =>
  outsideFinding([args.source, args.destination], context);
