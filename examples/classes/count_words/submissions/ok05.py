def count_words(text):
    counts = {}
    for word in text.lower().split():
        counts.setdefault(word, 0)
        counts[word] += 1
    return counts
