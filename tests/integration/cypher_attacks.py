"""Adversarial queries for `cypher_read`: each must be refused, or return only the asking user's
data. `WRITES` must all be refused. Written as an attacker would, category by category."""

LABELS = ["Turn", "MessagePiece", "FactEvent", "Session", "Entity", "User"]
TEXT = {"Turn": "text", "MessagePiece": "text", "FactEvent": "text", "Session": "source_id",
        "Entity": "name", "User": "id"}

# The two shapes a probe found, across every label.
REPORTED = [
    "MATCH (u:User) WHERE NOT u.user_id = $user_id MATCH (u)-[:HAS_SESSION]->()-[:HAS_TURN]->(t) "
    "RETURN t.text",
    "MATCH (t:Turn {user_id: $user_id}) RETURN COLLECT { MATCH (x:Turn) RETURN x.text } AS c",
] + [f"MATCH (x:{label}) WHERE NOT x.user_id = $user_id RETURN x.{TEXT[label]}" for label in LABELS] + [
    f"MATCH (t:Turn {{user_id: $user_id}}) RETURN COLLECT {{ MATCH (x:{label}) RETURN x.{TEXT[label]} }} AS c"
    for label in LABELS]

NEGATIONS = [f"MATCH (x:{label}) WHERE {cond} RETURN x.{TEXT[label]} AS v"
             for label in ("Turn", "FactEvent", "Entity")
             for cond in (
                 "x.user_id <> $user_id",
                 "(x.user_id = $user_id) = false",
                 "x.user_id = $user_id = false",
                 "x.user_id = $user_id XOR true",
                 "x.user_id = $user_id OR true",
                 "NOT (x.user_id = $user_id AND false)",
                 "NOT NOT x.user_id = $user_id OR true",
                 "x.user_id IN [$user_id, 'decoy-0']",
                 "x.user_id STARTS WITH '' AND $user_id IS NOT NULL",
                 "coalesce(x.user_id = $user_id, true) OR x.user_id <> $user_id",
                 "CASE WHEN x.user_id = $user_id THEN false ELSE true END",
                 "x.user_id =~ '.*' AND $user_id = $user_id",
             )]

SUBQUERIES = [
    "MATCH (t:Turn {user_id: $user_id}) RETURN COUNT { MATCH (x:Turn) } AS n",
    "MATCH (t:Turn {user_id: $user_id}) WHERE EXISTS { MATCH (x:Turn) WHERE x.text = t.text "
    "AND x.user_id <> $user_id } RETURN t.text",
    "MATCH (t:Turn {user_id: $user_id}) RETURN CASE WHEN t.idx > 1 THEN COLLECT { MATCH (x:Turn) "
    "RETURN x.text } ELSE [] END AS c",
    "MATCH (t:Turn {user_id: $user_id}) WITH t, COUNT { (y:Session) } AS n RETURN n",
    "MATCH (t:Turn {user_id: $user_id}) RETURN exists { (x:Turn)-[:NEXT]->(y) } AS e",
    "MATCH (t:Turn {user_id: $user_id}) RETURN collect{MATCH (x:FactEvent) RETURN x.text} AS c",
    "MATCH (t:Turn {user_id: $user_id}) RETURN COLLECT { MATCH (x:Turn {user_id: $user_id}) "
    "RETURN x.text } AS c",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t.text, COUNT{MATCH (s:Session) WHERE "
    "s.user_id <> $user_id} AS n",
    "MATCH (u:User {user_id: $user_id}) RETURN [x IN COLLECT { MATCH (e:Entity) RETURN e.name } "
    "| x] AS names",
    "MATCH (t:Turn {user_id: $user_id}) WHERE COUNT { MATCH (x:Turn) WHERE x.text = t.text } > 1 "
    "RETURN t.text",
]

CALL_SUBQUERIES = [
    "CALL { MATCH (x:Turn) RETURN x } RETURN x.text, $user_id",
    "CALL () { MATCH (x:Turn) RETURN x.text AS v } RETURN v, $user_id",
    "MATCH (t:Turn {user_id: $user_id}) CALL (t) { MATCH (x:Turn) WHERE x.text = t.text "
    "RETURN x } RETURN x.user_id",
    "MATCH (t:Turn {user_id: $user_id}) CALL { WITH t MATCH (t)-[:NEXT]->(n) RETURN n } "
    "RETURN n.text",
    "UNWIND [1] AS i CALL { MATCH (s:Session) RETURN s } RETURN s.source_id, $user_id",
    "MATCH (t:Turn {user_id: $user_id}) CALL db.labels() YIELD label RETURN label",
]

COMPREHENSIONS = [
    "MATCH (t:Turn {user_id: $user_id}) RETURN [(x:Turn) | x.text] AS all",
    "MATCH (t:Turn {user_id: $user_id}) RETURN [(t)-[:NEXT]->(x) | x.text] AS nexts",
    "MATCH (t:Turn {user_id: $user_id}) RETURN [(x:Turn)-[:NEXT]->(y) WHERE x.user_id <> $user_id "
    "| y.text] AS other",
    "MATCH (u:User {user_id: $user_id}) RETURN size([(s:Session) | s]) AS n",
    "MATCH (u:User {user_id: $user_id}) RETURN [x IN [(e:Entity) | e] WHERE x.user_id <> "
    "$user_id | x.name] AS n",
    "MATCH (t:Turn {user_id: $user_id}) RETURN reduce(a = '', x IN [(y:Turn) | y.text] | a + x) "
    "AS s",
    "MATCH (t:Turn {user_id: $user_id}) WITH collect(t) AS ts RETURN [x IN ts | x.text] AS texts",
    "MATCH (t:Turn {user_id: $user_id}) RETURN [p = (t)-[*1..3]-(x) | last(nodes(p)).user_id] "
    "AS owners",
    "MATCH (t:Turn {user_id: $user_id}) RETURN CASE WHEN true THEN [(x:MessagePiece) | x.text] "
    "END AS p",
    "MATCH (f:FactEvent {user_id: $user_id}) RETURN [(f)-[:DERIVED_FROM]->(p) | p.text] AS spans",
]

UNWINDS = [
    "MATCH (t:Turn {user_id: $user_id}) WITH collect(t) AS ts MATCH (x:Turn) WHERE NOT x IN ts "
    "RETURN x.text",
    "MATCH (t:Turn {user_id: $user_id}) WITH collect(t) AS ts UNWIND ts AS t2 "
    "MATCH (t2)<-[:HAS_TURN]-(s) RETURN s.source_id",
    "MATCH (t:Turn {user_id: $user_id}) WITH collect(t.text) AS texts MATCH (x:Turn) "
    "WHERE x.text IN texts RETURN x.user_id",
    "MATCH (t:Turn {user_id: $user_id}) WITH collect(t) AS ts UNWIND ts AS t2 "
    "MATCH (x:Turn) WHERE x.text = t2.text RETURN x.user_id",
    "UNWIND $names AS n MATCH (e:Entity) WHERE e.name = n RETURN e.user_id, $user_id",
    "MATCH (t:Turn {user_id: $user_id}) WITH collect(t) AS ts UNWIND ts AS t2 RETURN t2.text",
    "UNWIND range(0, 3) AS i MATCH (t:Turn) WHERE t.idx = i AND t.user_id <> $user_id "
    "RETURN t.text",
    "MATCH (f:FactEvent {user_id: $user_id}) WITH collect(f) AS fs UNWIND fs AS f2 "
    "MATCH (f2)-[:HAS_ROLE]->(e) RETURN e.name",
]

SHORTEST = [
    "MATCH (a:User {user_id: $user_id}), (b:User) MATCH p = shortestPath((a)-[*]-(b)) "
    "RETURN b.user_id",
    "MATCH p = shortestPath((a:User {user_id: $user_id})-[*..10]-(b:Turn)) RETURN b.text",
    "MATCH p = allShortestPaths((a:Turn {user_id: $user_id})-[*..6]-(b:Turn)) "
    "WHERE b.user_id <> $user_id RETURN b.text",
    "MATCH (a:Turn {user_id: $user_id}) MATCH p = shortestPath((a)-[:NEXT*]->(b)) "
    "RETURN b.text",
    "MATCH p = SHORTEST 1 (a:User {user_id: $user_id})-[]-+(b:Session) RETURN b.source_id",
    "MATCH (a:Session {user_id: $user_id}) MATCH p = ANY SHORTEST (a)-[*]-(b) RETURN b.user_id",
    "MATCH p = shortestPath((a:Entity)-[*]-(b:Entity {user_id: $user_id})) RETURN a.name",
]

OPTIONALS = [
    "MATCH (u:User {user_id: $user_id}) OPTIONAL MATCH (x:Turn) RETURN x.text",
    "MATCH (u:User {user_id: $user_id}) OPTIONAL MATCH (x:Turn) WHERE x.user_id = $user_id "
    "OR true RETURN x.text",
    "MATCH (u:User {user_id: $user_id}) OPTIONAL MATCH (u)-[*0..8]-(x) RETURN DISTINCT x.user_id",
    "OPTIONAL MATCH (x:Turn) WHERE x.user_id <> $user_id RETURN x.text",
    "OPTIONAL MATCH (u:User {user_id: $user_id}) OPTIONAL MATCH (v:User) WHERE v <> u "
    "RETURN v.id",
    "MATCH (t:Turn {user_id: $user_id}) OPTIONAL MATCH (x:Turn {text: t.text}) RETURN x.user_id",
    "MATCH (t:Turn {user_id: $user_id}) OPTIONAL MATCH (t)-[:NEXT]->(n) RETURN n.text",
]

RELATIONSHIPS = [
    "MATCH ()-[r:RELATED]->() RETURN r.fact_id, $user_id",
    "MATCH ()-[r:SUPERSEDES]->() RETURN r.at, r.decided_by, $user_id",
    "MATCH (a)-[r]->(b) WHERE a.user_id <> $user_id RETURN type(r), properties(r)",
    "MATCH (a)-[r]->(b) WHERE a.user_id = $user_id OR b.user_id <> $user_id RETURN b.user_id",
    "MATCH (a {user_id: $user_id})-[r]->(b) RETURN type(r) AS t, properties(r) AS p, b.user_id",
    "MATCH ()-[r:HAS_TURN]->(t) WHERE t.user_id <> $user_id RETURN t.text",
    "MATCH ()-[r:HAS_ROLE]-() RETURN r.role, $user_id",
    "MATCH (a)-[r:NEXT]->(b) WHERE elementId(r) IS NOT NULL AND $user_id IS NOT NULL "
    "RETURN b.text",
    "MATCH (u:User {user_id: $user_id})-[r:RELATED]->(e) RETURN r.predicate, e.name",
    "MATCH (f:FactEvent {user_id: $user_id})-[r:SUPERSEDES|UPDATES|CONTRADICTS]-(g) "
    "RETURN g.user_id, r.decided_by",
]

MAPS = [
    "MATCH (x:Turn) RETURN x {.*, me: $user_id} AS m",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t {.text, other: [(y:Turn) | y.text]} AS m",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t {.text, .idx} AS m",
    "MATCH (e:Entity) WHERE e.user_id <> $user_id RETURN e {.name, .aliases} AS m",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t {.*, n: COLLECT { MATCH (x:Session) RETURN x.id }}",
    "MATCH (s:Session {user_id: $user_id}) RETURN {id: s.id, turns: [(s)-[:HAS_TURN]->(t) | t.text]}",
    "MATCH (x:FactEvent) RETURN properties(x) AS p, $user_id",
]

CASES = [
    "MATCH (t:Turn) RETURN CASE WHEN t.user_id = $user_id THEN t.text ELSE t.text END AS v",
    "MATCH (t:Turn) WHERE CASE t.user_id WHEN $user_id THEN true ELSE true END RETURN t.text",
    "MATCH (t:Turn) WHERE CASE WHEN t.user_id = $user_id THEN true END IS NULL RETURN t.text",
    "MATCH (t:Turn {user_id: $user_id}) RETURN CASE WHEN t.idx > 0 THEN t.text END AS v",
    "MATCH (t:Turn) WITH t, CASE WHEN t.user_id = $user_id THEN 1 ELSE 0 END AS mine "
    "WHERE mine = 0 RETURN t.text",
]

STRINGS = [
    "MATCH (x:Turn) WHERE x.user_id = $user_id + '' RETURN x.text",
    "MATCH (x:Turn) WHERE x.user_id = substring($user_id, 0) RETURN x.text",
    "MATCH (x:Turn) WHERE x.user_id = toString($user_id) OR true RETURN x.text",
    "MATCH (x:Turn) WHERE x.user_id CONTAINS '' AND $user_id <> '' RETURN x.text",
    "MATCH (x:Turn) WHERE x.user_id = 'decoy-0' AND $user_id IS NOT NULL RETURN x.text",
    "MATCH (x:Turn) WHERE x.user_id = $victim AND $user_id IS NOT NULL RETURN x.text",
    "MATCH (x:Turn) WHERE x.user_id = replace($user_id, $user_id, 'decoy-1') RETURN x.text",
    "MATCH (x:Turn) WHERE x.user_id = 'decoy' + '-2' AND $user_id = $user_id RETURN x.text",
    "MATCH (x:Turn) WHERE x['user_id'] <> $user_id RETURN x.text",
    "MATCH (x:Turn) WHERE x[$key] = $user_id RETURN x.text",
    "WITH $user_id AS me MATCH (x:Turn) WHERE x.user_id <> me RETURN x.text",
    "WITH 'decoy-0' AS user_id MATCH (x:Turn) WHERE x.user_id = user_id AND $user_id <> '' "
    "RETURN x.text",
    "MATCH (x:Turn) WHERE toLower(x.user_id) = toLower($user_id) RETURN x.text",
]

PARAMETERS = [  # (query, parameters the caller tries to set)
    ("MATCH (t:Turn {user_id: $user_id}) RETURN t.text", {"user_id": "decoy-0"}),
    ("MATCH (t:Turn {user_id: $user_id}) RETURN t.text", {"user_id": ["decoy-0", "decoy-1"]}),
    ("MATCH (t:Turn {user_id: $uid}) RETURN t.text", {"uid": "decoy-0"}),
    ("MATCH (t:Turn) WHERE t.user_id = $uid RETURN t.text, $user_id", {"uid": "decoy-0"}),
    ("MATCH (t:Turn) RETURN t.text // $user_id", {}),
    ("MATCH (t:Turn) RETURN t.text, '$user_id' AS s", {}),
    ("MATCH (t:Turn) WHERE $user_id IS NOT NULL RETURN t.text", {"user_id": None}),
    ("MATCH (t:Turn {user_id: $User_id}) RETURN t.text, $user_id", {"User_id": "decoy-0"}),
    ("MATCH (t:Turn {user_id: $user_id}) RETURN t.text", {"user_id": {"x": 1}}),
    ("MATCH (t:Turn) WHERE t.user_id IN $ids RETURN t.text, $user_id", {"ids": ["decoy-0"]}),
    ("MATCH (t:Turn {user_id: $`user_id`}) RETURN t.text", {"user_id": "decoy-0"}),
]

HIDING = [
    "MATCH (t:Turn {user_id: $user_id}) /* harmless */ CREATE (:Hacked) RETURN t",
    "MATCH (t:Turn {user_id: $user_id}) // comment\nCREATE (:Hacked)",
    "MATCH (t:Turn {user_id: $user_id}) WHERE t.text <> '//' CALL db.labels() YIELD label "
    "RETURN label",
    "MATCH (t:Turn {user_id: $user_id}) WHERE t.text <> '/*' MATCH (x:Turn) // */\nRETURN x.text",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t.text /* ' */ UNION MATCH (x:Turn) RETURN x.text "
    "// '",
    "MATCH (t:Turn {user_id: $user_id}) \\u0043REATE (:Hacked)",
    "MATCH (t:Turn {user_id: $user_id}) \uff23\uff32\uff25\uff21\uff34\uff25 (:Hacked)",
    "MATCH (t:Turn {user_id: $user_id}) CR/**/EATE (:Hacked)",
    "MATCH (`t`:Turn {user_id: $user_id}) WITH `t` MATCH (`x y`:Turn) RETURN `x y`.text",
    "MATCH (t:Turn {user_id: $user_id}) WHERE t.text = \"it's\" MATCH (x:Turn) RETURN x.text",
    "MATCH (t:Turn {user_id: $user_id}) WHERE t.text = 'a\\'' MATCH (x:Turn) RETURN x.text",
    "MATCH (t:`Turn` {`user_id`: $user_id}) MATCH (x:`Turn`) RETURN x.text",
    "/* MATCH (t:Turn {user_id: $user_id}) */ MATCH (x:Turn) RETURN x.text, $user_id",
    "MATCH (t:Turn {user_id: $user_id})\u2014[:NEXT]\u2192(x) RETURN x.text",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t.text; MATCH (x:Turn) RETURN x.text",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t.text UNION MATCH (x:Turn) RETURN x.text",
    "MATCH (t:Turn {user_id: $user_id}) RETURN t.text UNION ALL MATCH (x:Turn) "
    "WHERE x.user_id <> $user_id RETURN x.text",
]

OTHER_READS = [
    "MATCH (n) WHERE id(n) >= 0 AND $user_id IS NOT NULL RETURN n.user_id",
    "MATCH (n) WHERE elementId(n) IS NOT NULL RETURN n.text, $user_id",
    "MATCH (n:Turn) RETURN count(n) AS c, $user_id AS u",
    "MATCH ()-[r]->() RETURN count(r) AS c, $user_id AS u",
    "MATCH (a:Turn {user_id: $user_id}), (b:Turn) WHERE a.text = b.text RETURN b.user_id",
    "MATCH (a:Turn {user_id: $user_id}) MATCH (b:Turn) WHERE b.text = a.text "
    "AND b.user_id <> $user_id RETURN b.text",
    "MATCH (x:Turn) WHERE x.user_id = $user_id WITH x MATCH (y:Turn) RETURN y.text",
    "MATCH (x:Turn {user_id: $user_id}) WITH x.text AS t MATCH (x:Turn) RETURN x.text",
    "MATCH (x) WHERE x:Turn AND x.user_id <> $user_id RETURN x.text",
    "MATCH (x:Turn|Session) WHERE x.user_id <> $user_id RETURN x.id",
    "MATCH (x:Turn) USING SCAN x:Turn WHERE x.user_id <> $user_id RETURN x.text",
    "MATCH (x:Turn) USING INDEX x:Turn(user_id) WHERE x.user_id > $user_id RETURN x.text",
    "MATCH (t:Turn {user_id: $user_id}) MATCH (x:Turn) WHERE x.idx = t.idx RETURN x.text",
    "MATCH (x:Turn) WITH x ORDER BY x.idx LIMIT 100 WHERE x.user_id <> $user_id RETURN x.text",
    "MATCH (x:Turn) WITH x.user_id AS owner, collect(x.text) AS texts WHERE owner <> $user_id "
    "RETURN texts",
    "MATCH (a:Turn {user_id: $user_id}) MATCH (b:Session {user_id: 'decoy-0'}) RETURN b.source_id",
    "MATCH (x:Turn) WHERE x.user_id = $user_id OR x.user_id = 'decoy-1' RETURN x.text",
    "MATCH (x:Entity) WHERE x.norm_name IN ['denver', 'acme robotics'] AND x.user_id <> $user_id "
    "RETURN x.user_id",
    "MATCH (x:Turn {user_id: $user_id}) MATCH (y:Turn {source_id: x.source_id}) RETURN y.user_id",
    "MATCH (x:User) WHERE x.id STARTS WITH 'decoy' AND $user_id IS NOT NULL RETURN x.id",
    "MATCH (x:GraphmemSchema) RETURN x.version, $user_id",
]

# Found by a hostile probe of the first version of the plan check: a WITH that rebinds the
# anchored name, and expressions evaluated on other users' rows whose errors quote them.
PROBE_FOUND = [
    "MATCH (x:Turn) WITH x AS v, {user_id: $user_id} AS x WHERE x.user_id = $user_id "
    "AND v.text CONTAINS 'CANARY' RETURN v.text, v.user_id",
    "MATCH (x:Turn) WITH x AS v, {user_id: $user_id} AS x WHERE x.user_id = $user_id "
    "RETURN v.user_id, count(*)",
    "MATCH (x:Turn) WITH x AS v, x {user_id: $user_id} AS x WHERE x.user_id = $user_id "
    "RETURN v.text",
    "MATCH (x:Turn) WITH x AS v, [{user_id: $user_id}][0] AS x WHERE x.user_id = $user_id "
    "RETURN v.user_id",
    "MATCH (x:Turn)-[r:NEXT]->(y) WITH x AS v, r, {user_id: $user_id} AS y "
    "WHERE y.user_id = $user_id RETURN v.text",
    "MATCH p = (x:Turn)-[:NEXT]->(y) WITH nodes(p) AS ns, {user_id: $user_id} AS x "
    "WHERE x.user_id = $user_id RETURN ns[0].user_id",
    "MATCH (x:Turn) WITH x AS `x y`, {user_id: $user_id} AS x WHERE x.user_id = $user_id "
    "RETURN `x y`.user_id",
    "MATCH (x:Turn) WITH x, date(CASE WHEN x.text STARTS WITH 'My locker' THEN x.user_id + ' / ' "
    "+ x.text ELSE '2020-01-01' END) AS d WHERE x.user_id = $user_id RETURN d",
    "MATCH (x:Turn) WITH x, CASE WHEN x.text STARTS WITH 'My locker code is C' THEN 1/0 ELSE 1 "
    "END AS z WHERE x.user_id = $user_id RETURN count(z)",
    "MATCH (x) WITH x, date(x.text) AS d WHERE x.user_id = $user_id RETURN d",
    "MATCH (x:Turn) WHERE toInteger(x.text) IS NULL AND x.user_id = $user_id RETURN x.text",
    "MATCH (x:Turn)-[r:NEXT WHERE 1 / CASE WHEN x.text STARTS WITH 'My locker' THEN 0 ELSE 1 END "
    "= 1]->(y) WHERE y.user_id = $user_id RETURN y.text",
]

# Queries an honest planner writes: accepted, and they return the user's own data only.
HONEST = [
    "MATCH (t:Turn {user_id: $user_id}) USING INDEX SEEK t:Turn(user_id) RETURN t.text ORDER BY t.idx",
    "MATCH (f:FactEvent {user_id: $user_id}) "
    "USING INDEX SEEK f:FactEvent(user_id) WHERE f.status = 'active' RETURN f.predicate, f.value",
    "MATCH (u:User {user_id: $user_id})-[:HAS_SESSION]->(s)-[:HAS_TURN]->(t)  "
    "USING INDEX SEEK u:User(user_id) "
    "RETURN s.source_id, count(t) AS n",
    "MATCH (f:FactEvent {user_id: $user_id})-[:HAS_ROLE]->(e:Entity) "
    "USING INDEX SEEK f:FactEvent(user_id) RETURN e.name, count(f) AS n",
    "MATCH (f:FactEvent {user_id: $user_id})-[r:SUPERSEDES]->(g) "
    "USING INDEX SEEK f:FactEvent(user_id) RETURN f.text, g.text, r.at",
    "MATCH (t:Turn {user_id: $user_id})-[:NEXT*1..2]->(n) "
    "USING INDEX SEEK t:Turn(user_id) RETURN t.source_id, n.source_id",
    "MATCH (e:Entity {user_id: $user_id}) "
    "USING INDEX SEEK e:Entity(user_id) RETURN e.name, e.aliases ORDER BY e.name",
    "MATCH (t:Turn) USING INDEX SEEK t:Turn(user_id) WHERE t.user_id = $user_id AND t.text CONTAINS 'Denver' "
    "RETURN t.source_id",
    "MATCH (s:Session {user_id: $user_id}) "
    "USING INDEX SEEK s:Session(user_id) RETURN s.source_id, s.started_at ORDER BY s.started_at",
    "MATCH (u:User {user_id: $user_id}) USING INDEX SEEK u:User(user_id) "
    "OPTIONAL MATCH (u)-[:HAS_SESSION]->(s) "
    "RETURN count(s) AS sessions",
    "MATCH (f:FactEvent {user_id: $user_id})-[:DERIVED_FROM]->(p)<-[:HAS_PIECE]-(t)  "
    "USING INDEX SEEK f:FactEvent(user_id) "
    "RETURN f.text, p.text, t.source_id",
    "MATCH (t:Turn {user_id: $user_id}) "
    "USING INDEX SEEK t:Turn(user_id) RETURN t {.text, .idx} AS m ORDER BY m.idx",
    "MATCH (t:Turn {user_id: $user_id}) "
    "USING INDEX SEEK t:Turn(user_id) WITH collect(t) AS ts UNWIND ts AS x RETURN x.source_id",
    "MATCH (f:FactEvent {user_id: $user_id}) "
    "USING INDEX SEEK f:FactEvent(user_id) RETURN f.predicate, collect(f.value) AS values",
    "MATCH (a:Turn {user_id: $user_id}), (b:Turn {user_id: $user_id}) USING INDEX SEEK a:Turn(user_id) "
    "USING INDEX SEEK b:Turn(user_id) WHERE a.idx = b.idx "
    "AND a.session_id <> b.session_id RETURN a.text, b.text",
]

WRITES = [
    "CREATE (n:Hacked) RETURN n",
    "MATCH (t:Turn {user_id: $user_id}) SET t.text = 'owned'",
    "MATCH (t:Turn {user_id: $user_id}) DETACH DELETE t",
    "MATCH (t:Turn {user_id: $user_id}) DELETE t",
    "MATCH (t:Turn {user_id: $user_id}) REMOVE t.text",
    "MERGE (n:Hacked {user_id: $user_id})",
    "merge (n:Hacked {user_id: $user_id})",
    "CrEaTe (n:Hacked {user_id: $user_id})",
    "MATCH (t:Turn {user_id: $user_id}) FOREACH (x IN [1] | CREATE (:Hacked))",
    "LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l, $user_id",
    "CALL db.createLabel('Hacked')",
    "MATCH (t:Turn {user_id: $user_id}) CALL { CREATE (:Hacked) } RETURN t",
    "CALL apoc.create.node(['Hacked'], {}) YIELD node RETURN node, $user_id",
    "CREATE INDEX hacked IF NOT EXISTS FOR (n:Hacked) ON (n.x)",
    "DROP INDEX turn_user",
    "DROP CONSTRAINT turn_id_unique",
    "CREATE USER hacker SET PASSWORD 'x'",
    "USE system SHOW USERS",
    "CALL dbms.security.createUser('hacker', 'x', false)",
    "MATCH (t:Turn {user_id: $user_id}) WITH t CALL { WITH t SET t.x = 1 } IN TRANSACTIONS",
    "MATCH (a:Turn {user_id: $user_id}), (b:Turn) CREATE (a)-[:LEAK]->(b)",
    "MATCH (t:Turn {user_id: $user_id}) SET t += {text: 'owned'}",
    "MATCH (t:Turn {user_id: $user_id}) SET t:Hacked",
    "MATCH (t:Turn {user_id: $user_id}) RETURN apoc.cypher.runFirstColumnSingle("
    "'MATCH (n) DETACH DELETE n', {})",
    "MATCH (t:Turn {user_id: $user_id}) WITH t LIMIT 1 MERGE (t)-[:LEAK]->(:Hacked)",
    "MATCH (t:Turn {user_id: $user_id}) /* */ SET /* */ t.text = 'owned'",
    "MATCH (t:Turn {user_id: $user_id}) \\u0053ET t.text = 'owned'",
    "EXPLAIN MATCH (t:Turn {user_id: $user_id}) SET t.text = 'owned'",
    "CYPHER runtime=slotted MATCH (t:Turn {user_id: $user_id}) SET t.text = 'owned'",
    "FINISH",
]

# Oracles (the second probe): a seek or a range on another user's constant first, then plain
# expansions, then the `$user_id` filter. Each answers a yes/no question about the victim through
# time (the expansion runs over the victim's subgraph into the time limit) or through an error.
# `{victim}` is the victim's user id; `$lo`/`$hi` are set by the caller. They must all be refused
# or answer the same, in the same time class, whether the victim is there or not.
_WALK = "-[*1..12]-(y) WHERE y.user_id = $user_id RETURN count(*) AS n"
ORACLES = [
    # another user's entity by name
    "MATCH (e:Entity {{user_id: '{victim}', norm_name: 'denver'}})" + _WALK,
    "MATCH (e:Entity {{norm_name: 'denver', user_id: '{victim}'}})" + _WALK,
    "MATCH (e:Entity) WHERE e.user_id = '{victim}' AND e.norm_name = 'denver' MATCH (e)" + _WALK,
    # whether a user exists
    "MATCH (u:User {{user_id: '{victim}'}})" + _WALK,
    "MATCH (u:User {{id: '{victim}'}})" + _WALK,
    "MATCH (s:Session {{user_id: '{victim}'}})" + _WALK,
    # fact slots, values and statuses
    "MATCH (f:FactEvent {{user_id: '{victim}', slot: 'user|lives_in'}})" + _WALK,
    "MATCH (f:FactEvent {{user_id: '{victim}', status: 'superseded'}})" + _WALK,
    "MATCH (f:FactEvent) WHERE f.value = 'Portland' MATCH (f)" + _WALK,
    # source turn ids
    "MATCH (t:Turn {{user_id: '{victim}', source_id: 's1_1'}})" + _WALK,
    "MATCH (t:Turn) WHERE t.source_id = 's1_1' MATCH (t)" + _WALK,
    # session date ranges
    "MATCH (s:Session) WHERE s.user_id = '{victim}' AND s.started_at >= datetime('2024-01-01') "
    "AND s.started_at < datetime('2024-02-01') MATCH (s)" + _WALK,
    # name ranges
    "MATCH (e:Entity) WHERE e.user_id = '{victim}' AND e.norm_name >= 'd' AND e.norm_name < 'e' "
    "MATCH (e)" + _WALK,
    "MATCH (e:Entity) WHERE e.norm_name STARTS WITH 'den' MATCH (e)" + _WALK,
    "MATCH (e:Entity) WHERE e.norm_name ENDS WITH 'ver' MATCH (e)" + _WALK,
    "MATCH (e:Entity) WHERE e.norm_name CONTAINS 'enve' MATCH (e)" + _WALK,
    # IN lists
    "MATCH (e:Entity) WHERE e.user_id IN ['{victim}', $user_id] AND e.norm_name IN ['denver'] "
    "MATCH (e)" + _WALK,
    "MATCH (e:Entity) WHERE e.user_id IN ['{victim}'] MATCH (e)" + _WALK,
    # the binary search on slots that recovered a dog's name
    "MATCH (f:FactEvent) WHERE f.slot >= $lo AND f.slot < $hi MATCH (f)" + _WALK,
    "MATCH (f:FactEvent) WHERE f.user_id = '{victim}' AND f.slot >= $lo AND f.slot < $hi "
    "MATCH (f)" + _WALK,
    # relationship scans and ids
    "MATCH ()-[r:SUPERSEDES]->(g) WHERE r.at IS NOT NULL MATCH (g)" + _WALK,
    "MATCH (x) WHERE elementId(x) = $lo MATCH (x)" + _WALK,
    # errors instead of time: evaluated on the victim's row before the anchor
    "MATCH (e:Entity {{user_id: '{victim}', norm_name: 'denver'}}), (t:Turn {{user_id: $user_id}}) "
    "RETURN count(t) / (size(e.name) - 6) AS n",
    "MATCH (e:Entity {{user_id: '{victim}'}}) WITH e WHERE toInteger(e.name) = 1 "
    "MATCH (t:Turn {{user_id: $user_id}}) RETURN count(t) AS n",
    "MATCH (f:FactEvent {{user_id: '{victim}', slot: 'user|lives_in'}}) "
    "MATCH (t:Turn {{user_id: $user_id}}) RETURN count(t) AS n",
    # scans filtered afterwards: their time grows with every user's nodes
    "MATCH (n) WHERE n.user_id = $user_id RETURN labels(n)[0] AS label, count(*) AS n",
    "MATCH (t:Turn) WHERE t.user_id = $user_id OR t.source_id = 's1_1' RETURN count(t) AS n",
]

READS: list[tuple[str, dict]] = [
    (q, {}) for q in (REPORTED + NEGATIONS + SUBQUERIES + CALL_SUBQUERIES + COMPREHENSIONS
                      + UNWINDS + SHORTEST + OPTIONALS + RELATIONSHIPS + MAPS + CASES + STRINGS
                      + HIDING + OTHER_READS + PROBE_FOUND)
] + PARAMETERS
