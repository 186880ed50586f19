// A service worker that would serve from its own cache: replaying past it is impossible.
self.addEventListener("fetch", () => {});
