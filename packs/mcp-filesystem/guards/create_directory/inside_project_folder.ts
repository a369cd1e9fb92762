/** `create_directory.inside_project_folder`: The directory created lies inside the project folder (the server's allowed directories). */
import type { PolicyCheck } from 'agentguard';
import type { CreateDirectoryArgs } from '../../types.ts';
import { outsideFinding } from '../lib/paths.ts';

export const check: PolicyCheck<CreateDirectoryArgs> = (args, context) => outsideFinding([args.path], context);
