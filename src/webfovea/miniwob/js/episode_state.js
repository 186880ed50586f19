// The episode's state as MiniWoB's page keeps it (what its environment reads back):
// done flag, shaped and raw reward, reason, the utterance and whether the task is ready.
() => ({
  done: Boolean(WOB_DONE_GLOBAL),
  reward: Number(WOB_REWARD_GLOBAL),
  raw: Number(WOB_RAW_REWARD_GLOBAL),
  reason: WOB_REWARD_REASON === null || WOB_REWARD_REASON === undefined ? null : String(WOB_REWARD_REASON),
  utterance: core.getUtterance(),
  ready: WOB_TASK_READY !== false,
  limitMs: core.EPISODE_MAX_TIME,
})
