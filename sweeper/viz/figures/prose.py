"""Small pieces of the pages' generated sentences, written once for every figure module."""

from __future__ import annotations


def and_list(words, capital: bool = False) -> str:
    """Names as a sentence lists them: ``a``, ``a and b``, ``a, b and c`` (``capital``: the first letter upper
    case, as a sentence begins)."""
    words = [str(w) for w in words]
    if not words:
        raise ValueError("and_list: give at least one word")
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return text[:1].upper() + text[1:] if capital else text


__all__ = ["and_list"]
