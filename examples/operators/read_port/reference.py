class ConfigError(Exception):
    pass


class Reader:
    def error(self, msg):
        return ConfigError(msg)

    def port(self, text):
        """The port number in text; ConfigError unless it is 1 to 65535."""
        n = int(text)
        if not 0 < n < 65536:
            raise self.error("port out of range")
        return n


def read_port(text):
    return Reader().port(text)
