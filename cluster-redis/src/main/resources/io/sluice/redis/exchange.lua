-- One sync of one Sluice with the others of its cluster id, atomic and in one round trip
-- (docs/ARCHITECTURE.md, "Many Sluices, one limit"). Times are the server's, so the Sluices' clocks
-- do not matter; every entry older than the TTL is dropped, and every key expires on its own.
--
-- KEYS[1]   the members hash: member -> "<last seen ms> "
-- KEYS[2]   the limits hash: version, document (read only)
-- KEYS[3..] one demand hash per limited bucket: member -> "<reported ms> <usage> <demand>"
-- ARGV[1]   this member's name
-- ARGV[2]   the TTL in milliseconds: three sync intervals
-- ARGV[3..] this member's "<usage> <demand>" for KEYS[3..]
--
-- Returns {now ms, live members, limits version or nil, live reports for KEYS[3], ...}, each list
-- flat: name, value, name, value...
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local member = ARGV[1]
local ttl = tonumber(ARGV[2])

local function report(key, value)
  redis.call('HSET', key, member, now .. ' ' .. value)
  redis.call('PEXPIRE', key, ttl)
  local live = {}
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    local at = tonumber(string.match(all[i + 1], '^%d+'))
    if at == nil or now - at > ttl then
      redis.call('HDEL', key, all[i])
    else
      live[#live + 1] = all[i]
      live[#live + 1] = all[i + 1]
    end
  end
  return live
end

local result = {now, report(KEYS[1], ''), redis.call('HGET', KEYS[2], 'version')}
for i = 3, #KEYS do
  result[i + 1] = report(KEYS[i], ARGV[i])
end
return result
