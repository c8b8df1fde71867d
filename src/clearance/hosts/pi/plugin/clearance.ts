// clearance for pi: every tool call is decided by clearance's policy before it runs.
// Installed by `clearance install pi`, with clearance's client below (`decide`): the running
// clearance service first, else `clearance hook pi` as a process. "allow" lets the call run;
// "deny" blocks it with clearance's reason; "ask" is shown in pi's own dialog (ctx.ui) when pi
// has a UI, and the choice goes back to clearance. Whatever is not clearance's allow blocks.
__CLEARANCE_CLIENT__

export default function clearance(pi: any): void {
  pi.on("tool_call", async (event: any, ctx: any) => {
    let sessionID: string | undefined;
    try {
      sessionID = ctx.sessionManager?.getSessionId?.();
    } catch {}
    const call = {
      tool: event.toolName,
      args: event.input ?? {},
      cwd: ctx.cwd,
      sessionID,
      ui: Boolean(ctx.hasUI),
    };
    let answer = await decide(call);
    if (answer.decision === "ask" && ctx.hasUI && answer.choices?.length && answer.token) {
      // clearance's own choices (Yes / Yes for this session … / No), in pi's dialog; the
      // chosen one goes back to clearance, which records session grants and logs it.
      const labels = answer.choices.map((c) => c.label);
      const picked = await ctx.ui.select(`clearance: ${answer.reason}`, labels);
      const chosen = answer.choices.find((c) => c.label === picked);
      answer = await decide({ ...call, answer: chosen?.choice ?? "deny", token: answer.token });
    }
    if (answer.decision === "allow") return undefined;
    return { block: true, reason: answer.reason || "[clearance] denied" };
  });
}
