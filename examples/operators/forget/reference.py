def forget(cache, key):
    """Remove key from cache if it is there; return how many keys are left."""
    cache.pop(key, None)
    return len(cache)
