"""The store layer: the only code that names the queries of `cypher/`, one typed function each.

Read functions take a `Graph`; write functions that belong to one session's transaction take the
transaction. Rows come out as the typed records of `nodes.py`, or as plain dicts where a query
returns a view (a memory card, a tunnel's hits) rather than a stored thing.
"""
