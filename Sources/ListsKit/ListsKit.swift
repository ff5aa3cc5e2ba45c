// ListsKit: the logic of objc.io's nested lists, free of any UI. Filled in by issue 12.
