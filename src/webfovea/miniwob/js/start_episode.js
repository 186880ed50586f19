// Start one episode through MiniWoB's own page API, as its Python environment does:
// end whatever runs (back to the sync screen), seed Math.random, set the time limit, start.
({ seed, limitMs }) => {
  if (typeof core === "undefined" || typeof genProblem === "undefined") return "not a MiniWoB task page";
  if (core.EP_TIMER !== null) core.endEpisode(0);
  Math.seedrandom(seed);
  core.EPISODE_MAX_TIME = limitMs;
  core.startEpisodeReal();
  // MiniWoB's click visualizer (a canvas beside the task area dotting every click) is a
  // debugging aid outside the task, absent from MiniWoB's own 160x210 observation: shown,
  // it would make every click, even one on empty space, visibly change the page.
  const trail = document.getElementById("click-canvas");
  if (trail) trail.style.display = "none";
  return null;
}
