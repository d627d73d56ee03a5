import re


def query_pairs(query):
    """The name=value pairs of a query string, separated by & or ;."""
    return dict(re.findall(r"([^&;=]+)=([^&;]*)", query))
