/** `write_file.inside_project_folder`: The file written lies inside the project folder (the server's allowed directories). */
import type { PolicyCheck } from 'agentguard';
import type { WriteFileArgs } from '../../types.ts';
import { outsideFinding } from '../lib/paths.ts';

export const check: PolicyCheck<WriteFileArgs> = (args, context) => outsideFinding([args.path], context);
