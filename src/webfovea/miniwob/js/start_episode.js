// Start one episode through MiniWoB's own page API, as its Python environment does:
// end whatever runs (back to the sync screen), seed Math.random, set the time limit, start.
({ seed, limitMs }) => {
  if (typeof core === "undefined" || typeof genProblem === "undefined") return "not a MiniWoB task page";
  if (core.EP_TIMER !== null) core.endEpisode(0);
  Math.seedrandom(seed);
  core.EPISODE_MAX_TIME = limitMs;
  core.startEpisodeReal();
  return null;
}
