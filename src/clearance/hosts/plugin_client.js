// How the plugin asks clearance, shared by clearance's OpenCode plugin and pi extension (the
// same text in both, written in by `clearance install`). `decide(payload)` asks the running
// clearance service (`clearance serve --listen`) at /hooks/<host> with the hook token from
// clearance's state; when no service runs (nothing listens, no token, or it refuses the token),
// it runs `clearance hook <host>` as a process with the same JSON on stdin. It resolves to
// clearance's answer, {decision, reason, choices?, token?}, or to a deny that says why the call
// is blocked: a service that took the call without deciding it, clearance missing or crashing,
// output that is not its JSON answer, or no answer in time. It never rejects.
import { spawn } from "node:child_process"
import { readFile } from "node:fs/promises"

// Written by `clearance install`: how to run clearance, where its service answers and the file
// with its hook token (CLEARANCE_SERVICE_URL in the host's environment names another address),
// and this host's name.
const CLEARANCE = __CLEARANCE_ARGV__
const SERVICE = __CLEARANCE_SERVICE__
const HOST = __CLEARANCE_HOST__
const TIMEOUT_SECONDS = 120
const DECISIONS = ["allow", "deny", "ask"]

function blocked(why) {
  return { decision: "deny", reason: `[clearance] ${why}, so the call is blocked` }
}

// clearance's JSON answer, or null when the text is not one.
function parsed(text) {
  try {
    const answer = JSON.parse(text)
    if (answer && DECISIONS.includes(answer.decision)) {
      return {
        decision: answer.decision,
        reason: String(answer.reason ?? ""),
        choices: Array.isArray(answer.choices) ? answer.choices : undefined,
        token: typeof answer.token === "string" ? answer.token : undefined,
      }
    }
  } catch {}
  return null
}

async function fromService(payload) {
  let token
  try {
    token = (await readFile(SERVICE.tokenFile, "utf8")).trim()
  } catch {
    return null // no service has run here: the process decides
  }
  const url = (process.env.CLEARANCE_SERVICE_URL || SERVICE.url).replace(/\/+$/, "") + "/hooks/" + HOST
  let response
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout((TIMEOUT_SECONDS + 10) * 1000),
    })
  } catch (error) {
    if (error?.name === "TimeoutError") return blocked("the clearance service did not answer in time")
    return null // nothing listens: the process decides
  }
  if (response.status === 401 || response.status === 404) return null
  let text = ""
  try {
    text = await response.text()
  } catch {}
  const answer = response.ok ? parsed(text) : null
  return answer ?? blocked(`the clearance service answered ${response.status} without a decision`)
}

function fromProcess(payload) {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(CLEARANCE[0], [...CLEARANCE.slice(1), "hook", HOST], {
        env: { ...process.env, CLEARANCE_HOOK_TIMEOUT: String(TIMEOUT_SECONDS) },
        stdio: ["pipe", "pipe", "pipe"],
      })
    } catch (error) {
      resolve(blocked(`could not start clearance (${error})`))
      return
    }
    let stdout = ""
    let stderr = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resolve(blocked("clearance did not answer in time"))
    }, (TIMEOUT_SECONDS + 10) * 1000)
    child.stdout.on("data", (chunk) => { stdout += chunk })
    child.stderr.on("data", (chunk) => { stderr += chunk })
    child.on("error", (error) => {
      clearTimeout(timer)
      resolve(blocked(`could not run clearance (${error.message})`))
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      const answer = parsed(stdout)
      if (answer && code === 0) {
        resolve(answer)
      } else if (answer) {
        resolve({ decision: "deny", reason: answer.reason }) // a failure's answer: its reason
      } else {
        const why = (stderr.trim() || `exit ${code}`).slice(0, 2000)
        resolve(blocked(`the clearance hook failed (${why})`))
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

async function decide(payload) {
  try {
    return (await fromService(payload)) ?? (await fromProcess(payload))
  } catch (error) {
    return blocked(`the clearance plugin failed (${error})`)
  }
}
