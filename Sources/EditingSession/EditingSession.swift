// EditingSession: one context's named, undoable, saved-at-once actions. Filled in by issue 12.
