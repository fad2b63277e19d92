"""Prompt modules, one per LLM task, each with its JSON schema and reply validator."""
