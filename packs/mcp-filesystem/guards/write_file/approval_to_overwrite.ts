/** `write_file.approval_to_overwrite`: Writing a file that already exists replaces its whole content and needs the person's approval; a new file needs none. */
import type { PolicyCheck } from 'agentguard';
import type { WriteFileArgs } from '../../types.ts';

export const check: PolicyCheck<WriteFileArgs> = async (args, context) => {
  try {
    await context.invoker.invoke('get_file_info', { path: args.path });
  } catch {
    // No information about the path: the file does not exist yet (or cannot be read, which the server refuses anyway).
    return undefined;
  }
  return {
    message: `\`${args.path}\` already exists: replacing its whole content needs the person's approval; to change part of it, use edit_file`,
  };
};
