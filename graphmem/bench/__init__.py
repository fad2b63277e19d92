"""Benchmark commands: they print numbers; nothing here is a test."""
