def count_words(text):
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 1) + 1
    return counts
