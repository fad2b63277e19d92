MERGE (s:GraphmemSchema {version: $version})
SET s.name = $name, s.applied_at = datetime()
