VOWELS = "aeiou"


def count_vowels(text):
    """Number of vowels in text, ignoring case."""
    count = 0
    for ch in text.lower():
        if text in VOWELS:
            count += 1
    return count
