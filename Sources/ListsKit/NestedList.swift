public final class NestedList {}
