// Mark a re-embedding to another model as under way, and in which phase (embedding | swapping).
MATCH (s:GraphmemEmbedding {id: 'vectors'})
SET s.target_model = $model, s.target_dimensions = $dimensions, s.phase = $phase
