// Record the model and width of the stored embeddings (no re-embedding under way).
MERGE (s:GraphmemEmbedding {id: 'vectors'})
SET s.model = $model, s.dimensions = $dimensions, s.recorded_at = datetime()
REMOVE s.target_model, s.target_dimensions, s.phase
