"""WebRetriever's run layout, both ways: a bench run exported as the reference runner writes
its output (``webfovea export --format webretriever``, for NavEval), and the reference
runner's output read into a bench-shaped run (``webfovea import-trajectory --from
webretriever``). docs/webretriever.md says what each field holds."""
