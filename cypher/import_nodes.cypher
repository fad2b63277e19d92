// Restore one user's nodes from an export (the file is checked whole before this runs; the user
// has no memory in this database yet). One block per label, so every label is a literal.
CALL () { UNWIND [r IN $nodes WHERE r.label = 'User'] AS row
  CREATE (n:User) SET n = row.props RETURN count(*) AS users }
CALL () { UNWIND [r IN $nodes WHERE r.label = 'Session'] AS row
  CREATE (n:Session) SET n = row.props RETURN count(*) AS sessions }
CALL () { UNWIND [r IN $nodes WHERE r.label = 'Turn'] AS row
  CREATE (n:Turn) SET n = row.props RETURN count(*) AS turns }
CALL () { UNWIND [r IN $nodes WHERE r.label = 'MessagePiece'] AS row
  CREATE (n:MessagePiece) SET n = row.props RETURN count(*) AS pieces }
CALL () { UNWIND [r IN $nodes WHERE r.label = 'FactEvent'] AS row
  CREATE (n:FactEvent) SET n = row.props RETURN count(*) AS facts }
CALL () { UNWIND [r IN $nodes WHERE r.label = 'Entity'] AS row
  CREATE (n:Entity) SET n = row.props RETURN count(*) AS entities }
RETURN users, sessions, turns, pieces, facts, entities
