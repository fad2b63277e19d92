"""The currency scenario suite: short transcripts, each with the state memory must end in."""
