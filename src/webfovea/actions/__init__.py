"""The action vocabulary: the registry (every action defined once), key names and the blocked
hotkeys, native input values, and the coordinate geometry between the model and the page."""
