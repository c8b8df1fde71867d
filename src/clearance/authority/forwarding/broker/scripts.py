"""The broker's two Lua scripts: each runs as one atomic step inside Redis, so a request is
decided by one instance, answered once, and acknowledged only together with its answer."""

from __future__ import annotations

from clearance.authority.forwarding.broker.keys import AUDIT_MAX

__all__ = ["ANSWER", "TAKE"]

# KEYS[1] asks, KEYS[2] audit, KEYS[3] grants, KEYS[4] revoked, then per request: done, alive,
# claim. ARGV: group, consumer, claim ms, keep ms, then per request: entry id, request id.
# Returns the state of each request, the session's grants and its revoked grants (read in the
# same step).
TAKE = """
local out = {}
local n = (#KEYS - 4) / 3
for i = 1, n do
  local done, alive, claim = KEYS[3*i+2], KEYS[3*i+3], KEYS[3*i+4]
  local eid, rid = ARGV[3 + 2*i], ARGV[4 + 2*i]
  if redis.call('EXISTS', done) == 1 then
    redis.call('XACK', KEYS[1], ARGV[1], eid)
    redis.call('XDEL', KEYS[1], eid)
    out[i] = 'answered'
  elseif redis.call('EXISTS', alive) == 0 then
    redis.call('SET', done, 'abandoned', 'PX', ARGV[4])
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', 'AUDIT_MAX', '*', 'event', 'abandoned', 'id', rid,
               'consumer', ARGV[2], 'why', 'the requester stopped waiting before it was read')
    redis.call('XACK', KEYS[1], ARGV[1], eid)
    redis.call('XDEL', KEYS[1], eid)
    out[i] = 'gone'
  else
    local owner = redis.call('GET', claim)
    if owner and owner ~= ARGV[2] then
      out[i] = 'busy'
    else
      redis.call('SET', claim, ARGV[2], 'PX', ARGV[3])
      out[i] = 'new'
    end
  end
end
return {out, redis.call('HKEYS', KEYS[3]), redis.call('HKEYS', KEYS[4])}
""".replace("AUDIT_MAX", str(AUDIT_MAX))

# KEYS: done, reply, audit, asks, claim. ARGV: body, signature, keep ms, group, entry id,
# consumer, request id, event, record (JSON).
ANSWER = """
if not redis.call('SET', KEYS[1], ARGV[8], 'NX', 'PX', ARGV[3]) then
  redis.call('XACK', KEYS[4], ARGV[4], ARGV[5])
  redis.call('XDEL', KEYS[4], ARGV[5])
  return 0
end
redis.call('XADD', KEYS[2], '*', 'm', ARGV[1], 's', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 'AUDIT_MAX', '*', 'event', ARGV[8], 'id', ARGV[7],
           'consumer', ARGV[6], 'record', ARGV[9])
redis.call('XACK', KEYS[4], ARGV[4], ARGV[5])
redis.call('XDEL', KEYS[4], ARGV[5])
redis.call('DEL', KEYS[5])
return 1
""".replace("AUDIT_MAX", str(AUDIT_MAX))
