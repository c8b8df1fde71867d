// clearance for pi: every tool call is decided by clearance's policy before it runs.
// Installed by `clearance install pi`; it runs `clearance hook pi` once per call. "allow" lets
// the call run; "deny" blocks it with clearance's reason; "ask" is shown in pi's own dialog
// (ctx.ui) when pi has a UI. Anything else blocks: clearance missing or crashing, output that is
// not its JSON answer, or no answer in time.
import { spawn } from "node:child_process";

// Written by `clearance install pi`: how to run clearance, and the hook's time budget.
const CLEARANCE: string[] = __CLEARANCE_ARGV__;
const TIMEOUT_SECONDS = 120;

type Choice = { label: string; choice: string };
type Answer = {
  decision: "allow" | "deny" | "ask";
  reason: string;
  choices?: Choice[];
  token?: string;
};

function decide(payload: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve) => {
    const blocked = (why: string): void =>
      resolve({ decision: "deny", reason: `[clearance] ${why}, so the call is blocked` });
    let child;
    try {
      child = spawn(CLEARANCE[0], [...CLEARANCE.slice(1), "hook", "pi"], {
        env: { ...process.env, CLEARANCE_HOOK_TIMEOUT: String(TIMEOUT_SECONDS) },
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      blocked(`could not start clearance (${error})`);
      return;
    }
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      blocked("clearance did not answer in time");
    }, (TIMEOUT_SECONDS + 10) * 1000);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", (error: Error) => {
      clearTimeout(timer);
      blocked(`could not run clearance (${error.message})`);
    });
    child.on("close", (code: number | null) => {
      clearTimeout(timer);
      try {
        const answer = JSON.parse(stdout);
        if (code === 0 && ["allow", "deny", "ask"].includes(answer.decision)) {
          resolve({
            decision: answer.decision,
            reason: String(answer.reason ?? ""),
            choices: Array.isArray(answer.choices) ? answer.choices : undefined,
            token: typeof answer.token === "string" ? answer.token : undefined,
          });
          return;
        }
        if (answer && typeof answer.reason === "string") {
          resolve({ decision: "deny", reason: answer.reason });
          return;
        }
      } catch {}
      blocked(`the clearance hook failed (${(stderr.trim() || `exit ${code}`).slice(0, 2000)})`);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

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
