class ConfigError(Exception):
    pass


def get_option(options, name):
    """The stripped value of option name; ConfigError when it is missing or empty."""
    if name not in options:
        raise ConfigError("missing option")
    value = options[name]
    return value.strip()
