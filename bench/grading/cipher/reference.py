import string


def caesar(text, shift):
    """Shifts the letters of text (keeping case) by shift places."""
    out = []
    for ch in text:
        if ch in string.ascii_lowercase:
            out.append(chr((ord(ch) - 97 + shift) % 26 + 97))
        elif ch in string.ascii_uppercase:
            out.append(chr((ord(ch) - 65 + shift) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)


def xor_bytes(data, key):
    """data XOR key repeated, as bytes; an empty key raises ValueError."""
    if not key:
        raise ValueError("empty key")
    return bytes(b ^ key[i % len(key)] for i, b in enumerate(data))


def crack(ciphertext, word):
    """The shifts (0-25) under which ciphertext decodes to text containing
    word, as a sorted tuple."""
    return tuple(s for s in range(26) if word in caesar(ciphertext, -s))
