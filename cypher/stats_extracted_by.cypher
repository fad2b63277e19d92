// How many facts each extractor made (a rule id, a model version or an LLM), of one user or of all.
MATCH (f:FactEvent)
WHERE $user_id IS NULL OR f.user_id = $user_id
RETURN coalesce(f.extracted_by, f.extractor, 'unknown') AS extracted_by, count(f) AS facts
ORDER BY facts DESC, extracted_by
