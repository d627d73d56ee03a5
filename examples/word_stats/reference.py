import sys


def main():
    """Read text on standard input; print the number of words and the
    length of the longest one."""
    words = sys.stdin.read().split()
    longest = 0
    for w in words:
        if len(w) > longest:
            longest = len(w)
    print(len(words), longest)


if __name__ == "__main__":
    main()
