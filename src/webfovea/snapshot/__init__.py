"""Site snapshots: record every response a run loaded, replay them offline (DESIGN contract)."""
