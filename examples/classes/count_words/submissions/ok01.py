def count_words(text):
    """How often each word of text occurs, case ignored."""
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 0) + 1
    return counts
