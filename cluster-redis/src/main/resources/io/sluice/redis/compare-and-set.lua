-- Stores a limits document if the stored version is the expected one (docs/REFERENCE.md, "Cluster").
-- KEYS[1] the limits hash: version, document
-- ARGV[1] the expected version, 0 when none is stored; ARGV[2] the new version; ARGV[3] the document
-- Returns 1 when stored, 0 when another version is stored.
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'document', ARGV[3])
return 1
