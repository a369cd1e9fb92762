/**
 * One step of a scripted model: the tool calls it makes, or its final text. The framework test doubles answer with
 * these in order.
 *
 * @example
 * ```ts
 * const steps: ScriptedStep[] = [{ calls: [{ id: 'c1', name: 'cancel_reservation', args: { reservation_id: 'VYAAQN' } }] }, { text: 'Done.' }];
 * ```
 */
export type ScriptedStep = { calls: { id: string; name: string; args: Record<string, unknown> }[] } | { text: string };
