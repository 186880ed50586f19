"""The run directory and its records: the store (its one reader and writer), the step and
result records, the step events, and the outcome categories read back from it."""
