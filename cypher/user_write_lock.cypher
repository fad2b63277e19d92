// One user's writes that decide slots take the user node's write lock first, so they run one
// after another: a session's ingest or append (which sets the user's speakers as it starts),
// forgetting a turn, marking a fact wrong, graphmem redecide. Without it, one could decide a
// slot from facts the other is about to change, and write its decision over the other's.
// (A property set and removed: Cypher's way to take a node's write lock.) The write decides
// slots with these rules ($rules): the rules recorded for every slot of the user
// (graphmem.currency_rules) stay only if they are the same, else they are unknown (graphmem
// redecide records its own after deciding them all).
MATCH (u:User {id: $user_id})
SET u._lock = true, u.currency_rules = CASE WHEN u.currency_rules = $rules THEN $rules END
REMOVE u._lock
