import re


def host_of(url):
    """The host of an absolute URL (scheme://host/path?query#fragment), or None."""
    m = re.match(r"^[a-z]+://([^?#]+)", url)
    return m.group(1) if m else None
