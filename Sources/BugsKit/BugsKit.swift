// BugsKit: the logic of the Project/Bug tracker, free of any UI. Filled in by issue 12.
