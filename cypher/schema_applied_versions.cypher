MATCH (s:GraphmemSchema)
RETURN s.version AS version, s.name AS name, toString(s.applied_at) AS applied_at
ORDER BY version
