import no_such_module_anywhere  # noqa: F401


class Adapter:
    pass
