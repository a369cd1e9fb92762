/** `edit_file.inside_project_folder`: The file edited lies inside the project folder (the server's allowed directories). */
import type { PolicyCheck } from 'agentguard';
import type { EditFileArgs } from '../../types.ts';
import { outsideFinding } from '../lib/paths.ts';

export const check: PolicyCheck<EditFileArgs> = (args, context) => outsideFinding([args.path], context);
