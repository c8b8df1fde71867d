// clearance for pi: every tool call is decided by clearance's policy before it runs.
// Installed by `clearance install pi`. It asks the running clearance service first
// (`clearance serve --listen`), else runs `clearance hook pi` as a process. "allow" lets the
// call run; "deny" blocks it with clearance's reason; "ask" is shown in pi's own dialog (ctx.ui)
// when pi has a UI. Anything else blocks: clearance missing or crashing, output that is not its
// JSON answer, a service that took the call without deciding it, or no answer in time.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";

// Written by `clearance install pi`: how to run clearance, and the hook's time budget.
const CLEARANCE: string[] = __CLEARANCE_ARGV__;
const TIMEOUT_SECONDS = 120;

// Written by `clearance install pi`: where `clearance serve --listen` answers, and the file with
// its hook token. When the service does not run (nothing listens, no token, or it refuses the
// token), `clearance hook pi` runs as a process.
const SERVICE: { url: string; tokenFile: string } = __CLEARANCE_SERVICE__;

type Choice = { label: string; choice: string };
type Answer = {
  decision: "allow" | "deny" | "ask";
  reason: string;
  choices?: Choice[];
  token?: string;
};

const DECISIONS = ["allow", "deny", "ask"];

function blocked(why: string): Answer {
  return { decision: "deny", reason: `[clearance] ${why}, so the call is blocked` };
}

// clearance's JSON answer, or null when it is not one.
function parsed(text: string): Answer | null {
  try {
    const answer = JSON.parse(text);
    if (answer && DECISIONS.includes(answer.decision)) {
      return {
        decision: answer.decision,
        reason: String(answer.reason ?? ""),
        choices: Array.isArray(answer.choices) ? answer.choices : undefined,
        token: typeof answer.token === "string" ? answer.token : undefined,
      };
    }
  } catch {}
  return null;
}

async function fromService(payload: Record<string, unknown>): Promise<Answer | null> {
  let token: string;
  try {
    token = (await readFile(SERVICE.tokenFile, "utf8")).trim();
  } catch {
    return null; // no service has run: the process decides
  }
  const url = (process.env.CLEARANCE_SERVICE_URL || SERVICE.url).replace(/\/+$/, "") + "/hooks/pi";
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout((TIMEOUT_SECONDS + 10) * 1000),
    });
  } catch (error: any) {
    if (error?.name === "TimeoutError") return blocked("the clearance service did not answer in time");
    return null; // nothing listens: the process decides
  }
  if (response.status === 401 || response.status === 404) return null;
  let text = "";
  try {
    text = await response.text();
  } catch {}
  const answer = response.ok ? parsed(text) : null;
  return answer ?? blocked(`the clearance service answered ${response.status} without a decision`);
}

function fromProcess(payload: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(CLEARANCE[0], [...CLEARANCE.slice(1), "hook", "pi"], {
        env: { ...process.env, CLEARANCE_HOOK_TIMEOUT: String(TIMEOUT_SECONDS) },
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve(blocked(`could not start clearance (${error})`));
      return;
    }
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(blocked("clearance did not answer in time"));
    }, (TIMEOUT_SECONDS + 10) * 1000);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", (error: Error) => {
      clearTimeout(timer);
      resolve(blocked(`could not run clearance (${error.message})`));
    });
    child.on("close", (code: number | null) => {
      clearTimeout(timer);
      const answer = parsed(stdout);
      if (answer && code === 0) {
        resolve(answer);
        return;
      }
      if (answer) {
        // A failure's answer is always a deny with clearance's reason.
        resolve({ decision: "deny", reason: answer.reason });
        return;
      }
      resolve(blocked(`the clearance hook failed (${(stderr.trim() || `exit ${code}`).slice(0, 2000)})`));
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

async function decide(payload: Record<string, unknown>): Promise<Answer> {
  try {
    return (await fromService(payload)) ?? (await fromProcess(payload));
  } catch (error) {
    return blocked(`the clearance extension failed (${error})`);
  }
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
