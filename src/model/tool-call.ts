/**
 * A request by an agent to run a tool.
 *
 * @example
 * ```ts
 * const call: ToolCall = { id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } };
 * ```
 */
export interface ToolCall {
  /** The call id the agent gave, or one made up when it gave none. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
