// clearance for OpenCode: every tool call is decided by clearance's policy before it runs.
// Installed by `clearance install opencode`, with clearance's client below (`decide`): the
// running clearance service first, else `clearance hook opencode` as a process. The plugin blocks
// the call (by throwing) unless clearance answers "allow". When OpenCode's own rules then ask
// about a call clearance allowed, the plugin answers that ask ("once") through OpenCode's reply
// API; its other asks are left to it.
__CLEARANCE_CLIENT__

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
