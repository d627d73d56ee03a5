def remaining(budget, spent):
    """What is left of the budget, never below zero."""
    return max(0, budget - spent)
