"""Match equity tables and score-aware decisions (issue 16)."""
