/** The token tau-bench's simulated user writes to end the conversation. */
export const stopToken = '###STOP###';
