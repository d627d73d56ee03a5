def remaining(budget, spent):
    """What is left of the budget, never below zero."""
    return budget - spent
