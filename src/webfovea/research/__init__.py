"""Research tools: ablation tables, datasets out of run directories, trajectories in."""
