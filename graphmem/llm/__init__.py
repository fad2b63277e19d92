"""LLM access through any OpenAI-compatible endpoint: configuration, client, usage accounting."""

from .client import LLMClient, LLMConfig, LLMError, LLMRequestRejected, Usage

__all__ = ["LLMClient", "LLMConfig", "LLMError", "LLMRequestRejected", "Usage"]
