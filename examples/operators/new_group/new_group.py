def new_group(groups, item):
    """Add a new group holding only item after the others; return the groups."""
    groups[0] = [item]
    return groups
