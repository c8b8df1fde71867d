// clearance for OpenCode: every tool call is decided by clearance's policy before it runs.
// Installed by `clearance install opencode`; it asks clearance once per call (the running service,
// else `clearance hook opencode`) and blocks the call (by throwing) unless clearance answers
// "allow". Anything else blocks too: clearance missing or crashing, output that is not its JSON
// answer, or no answer in time. When OpenCode's own rules then ask about a call clearance allowed,
// the plugin answers that ask ("once") through OpenCode's reply API; its other asks are left to it.
import { spawn } from "node:child_process"
import { readFile } from "node:fs/promises"

// Written by `clearance install opencode`: how to run clearance, and the hook's time budget.
const CLEARANCE = __CLEARANCE_ARGV__
const TIMEOUT_SECONDS = 120

// Written by `clearance install opencode`: where `clearance serve --listen` answers, and the file
// with its hook token. The service is asked first; when it does not run (nothing listens, no
// token, or it refuses the token), `clearance hook opencode` runs as a process.
const SERVICE = __CLEARANCE_SERVICE__

async function fromService(payload) {
  let token
  try {
    token = (await readFile(SERVICE.tokenFile, "utf8")).trim()
  } catch {
    return null
  }
  const url = (process.env.CLEARANCE_SERVICE_URL || SERVICE.url).replace(/\/+$/, "") + "/hooks/opencode"
  let response
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout((TIMEOUT_SECONDS + 10) * 1000),
    })
  } catch (error) {
    if (error?.name === "TimeoutError") {
      return { decision: "deny", reason: "[clearance] the clearance service did not answer in time; the call is blocked" }
    }
    return null // nothing listens: the process decides
  }
  if (response.status === 401 || response.status === 404) return null
  try {
    const answer = JSON.parse(await response.text())
    if (response.ok && answer && ["allow", "deny", "ask"].includes(answer.decision)) {
      return { decision: answer.decision, reason: String(answer.reason || "") }
    }
  } catch {}
  return { decision: "deny", reason: `[clearance] the clearance service answered ${response.status} without a decision; the call is blocked` }
}

async function decide(payload) {
  return (await fromService(payload)) ?? (await fromProcess(payload))
}

function fromProcess(payload) {
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

// The calls clearance allowed, by OpenCode's call id, until they finish: OpenCode's own asks
// about them (its "permission" rules at "ask", an outside directory) are answered "once".
const allowed = new Map()

function allow(callID, sessionID) {
  if (typeof callID !== "string" || !callID) return
  allowed.set(callID, sessionID)
  if (allowed.size > MAX_SESSIONS) allowed.delete(allowed.keys().next().value)
}

// OpenCode's reply API (POST /permission/{requestID}/reply), through the client it gives plugins.
async function reply(client, ask, answer) {
  if (typeof client?.permission?.reply === "function") {
    return await client.permission.reply({ requestID: ask.id, reply: answer })
  }
  return await client.postSessionIdPermissionsPermissionId({
    path: { id: ask.sessionID, permissionID: ask.id }, body: { response: answer },
  })
}

export const Clearance = async ({ directory, client }) => ({
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
    allow(input.callID, input.sessionID)
  },
  "tool.execute.after": async (input) => {
    allowed.delete(input.callID)
  },
  event: async ({ event }) => {
    if (event?.type !== "permission.asked") return
    const ask = event.properties ?? {}
    const callID = ask.tool?.callID
    if (!callID || !allowed.has(callID) || allowed.get(callID) !== ask.sessionID) return
    try {
      await reply(client, ask, "once")
    } catch {} // unanswered, the ask stays OpenCode's: its dialog, or a headless run's reject
  },
})
