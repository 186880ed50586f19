"""The foundations every room imports: the error hierarchy, the run configuration, the task,
the stage timings, the domain policy, the site mode, text folding and the lazy exports."""
