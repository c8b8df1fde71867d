// clearance for OpenCode: every tool call is decided by clearance's policy before it runs.
// Installed by `clearance install opencode`; it runs `clearance hook opencode` once per call and
// blocks the call (by throwing) unless clearance answers "allow". Anything else blocks too:
// clearance missing or crashing, output that is not its JSON answer, or no answer in time.
import { spawn } from "node:child_process"

// Written by `clearance install opencode`: how to run clearance, and the hook's time budget.
const CLEARANCE = __CLEARANCE_ARGV__
const TIMEOUT_SECONDS = 120

function decide(payload) {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(CLEARANCE[0], [...CLEARANCE.slice(1), "hook", "opencode"], {
        env: { ...process.env, CLEARANCE_HOOK_TIMEOUT: String(TIMEOUT_SECONDS) },
        stdio: ["pipe", "pipe", "pipe"],
      })
    } catch (error) {
      resolve({ decision: "deny", reason: `[clearance] could not start clearance (${error}); the call is blocked` })
      return
    }
    let stdout = ""
    let stderr = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resolve({ decision: "deny", reason: "[clearance] clearance did not answer in time; the call is blocked" })
    }, (TIMEOUT_SECONDS + 10) * 1000)
    child.stdout.on("data", (chunk) => { stdout += chunk })
    child.stderr.on("data", (chunk) => { stderr += chunk })
    child.on("error", (error) => {
      clearTimeout(timer)
      resolve({ decision: "deny", reason: `[clearance] could not run clearance (${error.message}); the call is blocked` })
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      try {
        const answer = JSON.parse(stdout)
        if (code === 0 && ["allow", "deny", "ask"].includes(answer.decision)) {
          resolve({ decision: answer.decision, reason: String(answer.reason || "") })
          return
        }
        if (answer && typeof answer.reason === "string") {
          resolve({ decision: "deny", reason: answer.reason })
          return
        }
      } catch {}
      const why = (stderr.trim() || `clearance exited with status ${code}`).slice(0, 2000)
      resolve({ decision: "deny", reason: `[clearance] the clearance hook failed, so the call is blocked: ${why}` })
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

// The agent each session runs, as OpenCode names it (a subagent runs in a child session of its
// own). OpenCode tells a tool call only its session, and tells the agent before every model
// request ("chat.params"); a tool call follows the model request that asked for it.
const MAX_SESSIONS = 1024
const agents = new Map()

function remember(sessionID, agent) {
  if (typeof sessionID !== "string" || typeof agent !== "string" || !agent) return
  agents.delete(sessionID)
  agents.set(sessionID, agent)
  if (agents.size > MAX_SESSIONS) agents.delete(agents.keys().next().value)
}

export const Clearance = async ({ directory }) => ({
  "chat.params": async (input) => {
    remember(input.sessionID, typeof input.agent === "string" ? input.agent : input.agent?.name)
  },
  "tool.execute.before": async (input, output) => {
    const answer = await decide({
      tool: input.tool,
      args: output.args ?? {},
      cwd: directory,
      sessionID: input.sessionID,
      agent: agents.get(input.sessionID) ?? input.agent,
      ui: false,
    })
    if (answer.decision !== "allow") {
      throw new Error(answer.reason || "[clearance] denied")
    }
  },
})
