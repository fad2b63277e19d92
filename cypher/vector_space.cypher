// The recorded vector space: the model and width of every stored embedding, and an unfinished
// re-embedding (its target) if there is one.
MATCH (s:GraphmemEmbedding {id: 'vectors'})
RETURN s.model AS model, s.dimensions AS dimensions, toString(s.recorded_at) AS recorded_at,
       s.target_model AS target_model, s.target_dimensions AS target_dimensions,
       s.phase AS phase
