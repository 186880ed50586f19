"""Site snapshots: record every response a run loaded, replay them offline (docs/contracts.md)."""
